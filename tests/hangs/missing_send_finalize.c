// hang: deadlock
// nprocs: 2 3 4
// expect-report: rank 0 waits in MPI_Recv(from rank 1, tag 0, MPI_COMM_WORLD)
// expect-report: finished and wait
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* rank 1 never sends: it is in MPI_Finalize while rank 0 waits for it */
  if (rank == 0)
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  MPI_Finalize(); // expect-deadlock: MPI_Finalize
  return 0;
}
