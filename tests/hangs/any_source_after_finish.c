// hang: deadlock
// nprocs: 2 3 4
// expect-report: rank 0 waits in MPI_Recv(from any source, any tag, MPI_COMM_WORLD)
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, i, x = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* one receive too many: every sender has finished */
  if (rank == 0) {
    for (i = 0; i < size; i++)
      MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
