// hang: deadlock
// nprocs: 2 3 4
// expect-report: closest candidate: rank 1 sent tag 10 to rank 0 on MPI_COMM_WORLD at tag_mismatch.c:13
// expect-report: rank 0 waits for tag 11 from rank 1 on MPI_COMM_WORLD at tag_mismatch.c:15
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, x = 7;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* the send's tag is not the tag the receive waits for */
  if (rank == 1)
    MPI_Send(&x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
  else if (rank == 0)
    MPI_Recv(&x, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  MPI_Finalize();
  return 0;
}
