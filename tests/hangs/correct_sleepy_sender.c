// hang: correct
// nprocs: 2
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* rank 1 sleeps three times the hang timeout before it sends: slow, not dead */
int main(int argc, char **argv) {
  int rank, x = 0;
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    usleep((useconds_t)(3 * t * 1e6));
    x = 42;
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("0 got %d\n", x);
  }
  MPI_Finalize();
  return 0;
}
