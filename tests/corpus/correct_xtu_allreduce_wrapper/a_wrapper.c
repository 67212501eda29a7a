// An allreduce wrapper in its own TU, compiled before its caller (Scotch's
// dgraphAllreduceMaxSum, dgraph_allreduce.c): its output and its return code are the
// same on every rank, which the caller in b_main.c only knows from the summary.
#include <mpi.h>
#include <stdio.h>

int allreduce_max(long *loc, long *glb, int n, MPI_Comm comm)
{
    MPI_Datatype pair;
    if (MPI_Type_contiguous(n, MPI_LONG, &pair) != MPI_SUCCESS) {
        fprintf(stderr, "allreduce_max: communication error (1)\n");
        return 1;
    }
    MPI_Type_free(&pair);
    if (MPI_Allreduce(loc, glb, n, MPI_LONG, MPI_MAX, comm) != MPI_SUCCESS) {
        fprintf(stderr, "allreduce_max: communication error (2)\n");
        return 1;
    }
    return 0;
}
