// hang: deadlock
// nprocs: 2 3 4
// expect-report: MPI_Wait for MPI_Irecv(from rank 1, tag 3, MPI_COMM_WORLD) posted at irecv_wait_cycle.c:13
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, x = 0, y = 1;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* each rank waits for its receive before it sends what its neighbour waits for */
  MPI_Irecv(&x, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Wait
  MPI_Send(&y, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
