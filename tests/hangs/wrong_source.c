// hang: deadlock
// nprocs: 3 4
// expect-report: closest candidate: rank 1 sent tag 0 to rank 0
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, x = 7;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* rank 1 sends, but rank 0 waits for rank 2 */
  if (rank == 1)
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  else if (rank == 0)
    MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  MPI_Finalize();
  return 0;
}
