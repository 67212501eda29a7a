// hang: deadlock
// nprocs: 4
// expect-report: cycle 1 -> 3 -> 1
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, sub, x = 0;
  MPI_Comm half;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &sub);
  /* in the odd half the two ranks receive from each other; the even half finishes */
  if (rank % 2 == 1)
    MPI_Recv(&x, 1, MPI_INT, 1 - sub, 0, half, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
