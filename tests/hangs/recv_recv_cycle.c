// hang: deadlock
// nprocs: 2 3 4 16
// expect-report: cycle 0 -> 1
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* every rank waits for its right neighbour before sending to its left one */
  MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  MPI_Send(&x, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
