// hang: correct
// nprocs: 3
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* a server answers requests from any source; the workers think for a while (one of
 * them longer than the hang timeout) between requests */
int main(int argc, char **argv) {
  int rank, size, i, job, done = 0;
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    while (done < size - 1) {
      MPI_Recv(&job, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == 1)
        done++;
      else
        MPI_Send(&job, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD);
    }
    printf("0 served\n");
  } else {
    for (i = 0; i < 3; i++) {
      usleep((useconds_t)(rank == 1 && i == 1 ? 1.5 * t * 1e6 : 1000));
      MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Recv(&job, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Send(&i, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
