// compile: mpicc
#include <mpi.h>

/* compiled by plain mpicc: no static analysis, no checks.  Only rank 0 enters the
 * barrier; the others go on to MPI_Finalize.  (A barrier against an allreduce is not
 * used here: MPICH may complete that pair silently.) */
void exchange(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // expect-deadlock: MPI_Barrier
}
