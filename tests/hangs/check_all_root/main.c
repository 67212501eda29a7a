// hang: dynamic-check
// nprocs: 2 3
// env: MPICC_WRAP_CHECK=all
// expect-report: ranks disagree on the root
#include <mpi.h>
#include <stdio.h>

void share(int rank, int *x);

int main(int argc, char **argv) {
  int rank, x = 3;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  share(rank, &x);
  printf("%d got %d\n", rank, x);
  MPI_Finalize();
  return 0;
}
