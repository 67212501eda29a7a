// hang: deadlock
// nprocs: 2 3 4
// env: MPICC_WRAP_HANG_COLLECTIVES=1
// expect-report: waits in MPI_Recv(from rank 0, tag 0, MPI_COMM_WORLD) at barrier_vs_recv.c:16
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* rank 0 enters the barrier; rank 1 waits for a message rank 0 sends after it */
  if (rank != 1) {
    MPI_Barrier(MPI_COMM_WORLD); // expect-deadlock: MPI_Barrier
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
