// hang: dynamic-check
// nprocs: 2 3
// env: MPICC_WRAP_CHECK=all
// expect-report: ranks disagree on the data size
#include <mpi.h>
#include <stdio.h>

void combine(int rank, int *x, int *y);

int main(int argc, char **argv) {
  int rank, x[2] = {3, 4}, y[2] = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  combine(rank, x, y);
  printf("%d got %d\n", rank, y[0]);
  MPI_Finalize();
  return 0;
}
