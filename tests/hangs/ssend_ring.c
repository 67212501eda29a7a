// hang: deadlock
// nprocs: 2 3 4
// expect-report: cycle 0 -> 1
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, x = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* a ring of synchronous sends: nobody has posted the receive yet */
  MPI_Ssend(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD); // expect-deadlock: MPI_Ssend
  MPI_Recv(&x, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
