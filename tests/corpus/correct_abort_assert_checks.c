// corpus: correct
// output-deterministic
// Per-rank sanity checks that end the job on failure: abort(), a failed assert() and
// an error helper that calls exit(1) through every path.  None fails in this run.
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what, int rank)
{
    fprintf(stderr, "rank %d: %s\n", rank, what);
    exit(1);
}

int main(int argc, char **argv)
{
    int rank, size, *buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    buf = malloc((size_t)(rank + 1) * sizeof *buf);
    if (buf == NULL)
        abort();
    assert(rank < size);
    buf[rank] = rank;
    if (buf[rank] != rank)
        fail("corrupt buffer", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &buf[rank], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checks passed\n");
    free(buf);
    MPI_Finalize();
    return 0;
}
