// hang: correct
// nprocs: 2 3
// env: MPICC_WRAP_HANG_COLLECTIVES=1
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* rank 0 computes for three times the hang timeout while the others wait in a barrier */
int main(int argc, char **argv) {
  int rank;
  volatile double acc = 0;
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    double start = MPI_Wtime();
    while (MPI_Wtime() - start < 3 * t)
      acc += 1e-9;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("%d done\n", rank);
  MPI_Finalize();
  return 0;
}
