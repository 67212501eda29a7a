// hang: deadlock
// nprocs: 2 3
// env: MPICC_WRAP_HANG_COLLECTIVES=1
// expect-report: waits in reduce(MPI_COMM_WORLD) at check_of_a_call_vs_recv.c:21 in main()
// check_vs_recv.c with the reductions inside a function of the program: the check
// before a call of it names the function (the rewriter spells it "reduce()"), and
// the report spells the call as it spells MPI calls.
#include <mpi.h>

static void reduce(int *x, int *y) { MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }

int main(int argc, char **argv) {
  int rank, size, code = 0, x = 1, y, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    code = 2;
  if (code == 2) {
    reduce(&x, &y);
    reduce(&x, &y); // expect-deadlock: reduce
  }
  reduce(&x, &y);
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Send(&x, 1, MPI_INT, i, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  }
  MPI_Finalize();
  return 0;
}
