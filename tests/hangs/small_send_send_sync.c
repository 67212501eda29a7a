// hang: deadlock
// nprocs: 2
// env: MPICC_WRAP_SYNC_SENDS=1
// expect-report: cycle 0 -> 1 -> 0
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, out = 1, in = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* unsafe: completes only because MPI buffers small messages; MPICC_WRAP_SYNC_SENDS=1
   * takes the buffering away */
  MPI_Send(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD); // expect-deadlock: MPI_Send
  MPI_Recv(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
