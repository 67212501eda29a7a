// hang: deadlock
// nprocs: 2 3 4
// cflags: -O2
// expect-report: closest candidate: rank 1 sent tag 10 to rank 0 on MPI_COMM_WORLD at nodebug_o2.c:20
// expect-report: rank 0 waits for tag 11 from rank 1 on MPI_COMM_WORLD at nodebug_o2.c:22
/* The tag mismatch of tag_mismatch.c in an inlined helper, compiled without -g and
 * optimised: the report still names file:line, from the line tables (-g1) mpicc-wrap
 * adds to a compile that chose no debug option. */
#include <mpi.h>
#include <stdio.h>

static int rank;

static double relay(double x) {
  double y = x;
  if (rank == 1) {
    y = x * 2;
    printf("rank 1 sends %g\n", y);
    fflush(stdout);
    MPI_Send(&y, 1, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&y, 1, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  }
  return y;
}

int main(int argc, char **argv) {
  double sum;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sum = relay(1.5);
  MPI_Finalize(); // expect-deadlock: MPI_Finalize
  return sum > 0 ? 0 : 1;
}
