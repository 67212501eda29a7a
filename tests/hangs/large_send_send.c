// hang: deadlock
// nprocs: 2
// expect-report: cycle 0 -> 1 -> 0
#include <mpi.h>
#include <stdlib.h>

#define N (4 * 1024 * 1024)

int main(int argc, char **argv) {
  int rank;
  char *out = calloc(N, 1), *in = calloc(N, 1);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* both send first: too large for MPI to buffer, so both wait for a receive */
  MPI_Send(out, N, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD); // expect-deadlock: MPI_Send
  MPI_Recv(in, N, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  free(out);
  free(in);
  return 0;
}
