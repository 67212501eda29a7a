// hang: correct
// nprocs: 2
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* persistent requests restarted in a loop; one iteration is slower than the timeout */
int main(int argc, char **argv) {
  int rank, i, out = 0, in = 0;
  double t = atof(getenv("MPICC_WRAP_HANG_TIMEOUT") ? getenv("MPICC_WRAP_HANG_TIMEOUT") : "2");
  MPI_Request reqs[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Send_init(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &reqs[1]);
  for (i = 0; i < 5; i++) {
    out = 10 * rank + i;
    if (rank == 1 && i == 2)
      usleep((useconds_t)(1.5 * t * 1e6));
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  printf("%d last %d\n", rank, in);
  MPI_Finalize();
  return 0;
}
