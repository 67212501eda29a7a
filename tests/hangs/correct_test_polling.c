// hang: correct
// nprocs: 2
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* rank 1 waits in MPI_Recv; rank 0 polls MPI_Test on a receive for three times the
 * hang timeout before it sends: polling is progress, not a hang */
int main(int argc, char **argv) {
  int rank, x = 0, flag = 0, polls = 0;
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    double start = MPI_Wtime();
    MPI_Irecv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
    while (!flag && MPI_Wtime() - start < 3 * t) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      polls++;
    }
    MPI_Send(&polls, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("0 got %d\n", x);
  } else if (rank == 1) {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    x = 9;
    MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
