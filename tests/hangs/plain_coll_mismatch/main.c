// hang: deadlock
// nprocs: 2 3 4
// env: MPICC_WRAP_HANG_COLLECTIVES=1
// expect-report: finished and wait
#include <mpi.h>

void exchange(int rank);

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  exchange(rank);
  MPI_Finalize();
  return 0;
}
