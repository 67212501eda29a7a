// corpus: correct
// output-deterministic
// Past 'if (vote_any(buf == NULL, comm)) return' every process has a buffer, though
// each allocated its own size; vote_any is in a_vote.c (FFTW's XM(any_true)).
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int vote_any(int condition, MPI_Comm comm);

static int sum_blocks(MPI_Comm comm, int n)
{
    int me, np, b, *buf, total = 0;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    b = n / np + (me < n % np);
    buf = b ? malloc(sizeof(int) * (size_t)b) : NULL;
    if (vote_any(buf == NULL, comm)) {
        free(buf);
        return -1;
    }
    if (buf)
        MPI_Allreduce(&b, &total, 1, MPI_INT, MPI_SUM, comm);
    free(buf);
    return total;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: %d %d\n", rank, sum_blocks(MPI_COMM_WORLD, 1),
           sum_blocks(MPI_COMM_WORLD, 100));
    MPI_Finalize();
    return 0;
}
