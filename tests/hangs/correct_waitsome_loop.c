// hang: correct
// nprocs: 3
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* rank 0 collects one message from every other rank with MPI_Waitsome; the last one
 * comes after more than the hang timeout */
int main(int argc, char **argv) {
  int rank, size, i, left, n, idx[64], vals[64];
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Request reqs[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Irecv(&vals[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &reqs[i - 1]);
    for (left = size - 1; left > 0; left -= n)
      MPI_Waitsome(size - 1, reqs, &n, idx, MPI_STATUSES_IGNORE);
    printf("0 collected %d\n", size - 1);
  } else {
    usleep((useconds_t)(rank == size - 1 ? 1.5 * t * 1e6 : 1000));
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
