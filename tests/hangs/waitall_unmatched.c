// hang: deadlock
// nprocs: 2 3 4
// expect-report: MPI_Irecv(from rank 1, tag 2, MPI_COMM_WORLD) posted at waitall_unmatched.c:17
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, a = 0, b = 0;
  MPI_Request reqs[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* rank 1 sends tag 1 only; rank 0 also waits for a tag 2 that never comes */
  if (rank == 1) {
    a = 5;
    MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); // expect-deadlock: MPI_Waitall
  }
  MPI_Finalize();
  return 0;
}
