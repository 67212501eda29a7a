// corpus: buggy
// Error-handling goto taken only by odd ranks skips the MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int compute(int rank)
{
    int *buf = malloc(4 * sizeof(int));
    int local = 0, sum = 0;

    if (rank % 2 == 1)  // expect-note: rank % 2 == 1
        goto cleanup;
    local = buf != NULL ? rank : 0;
    MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
cleanup:
    free(buf);
    return sum;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d result %d\n", rank, compute(rank));  // may-warn
    MPI_Finalize();
    return 0;
}
