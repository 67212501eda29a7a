// hang: deadlock
// nprocs: 2 3 4
// env: MPICC_WRAP_HANG_COLLECTIVES=1
// expect-report: waits in MPI_Allreduce(MPI_COMM_WORLD) at check_vs_recv.c:22 in main()
// hypre 2.26's hypre_CSRMatrixToParCSRMatrix (parcsr_mv/par_csr_matrix.c), reduced: a
// code set on rank 0 alone (never broadcast) picks how many reductions follow.  Rank
// 0's first passes as the others' later one (same kind, operator and size), so rank 0
// waits in the check of its second while the others wait for its message.  The
// report names the reduction the check is for, at its line, not the check's own
// MPI_Allreduce inside the checker.
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, code = 0, x = 1, y, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    code = 2;
  if (code == 2) {
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect-deadlock: MPI_Allreduce
  }
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Send(&x, 1, MPI_INT, i, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // expect-deadlock: MPI_Recv
  }
  MPI_Finalize();
  return 0;
}
