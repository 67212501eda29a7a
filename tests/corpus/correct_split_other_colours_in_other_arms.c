// corpus: correct
// output-deterministic
// In each round a pair of ranks and the others split the world together (MPICH's
// test/mpi/comm/comm_idup_overlap.c): the pair passes colour 0 into 'pair', the
// others colour 1 into 'rest'.  The two calls match each other, but their callers
// join different communicators, so every member of 'pair' made the call that wrote
// 'pair', and every member of 'rest' the other one.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int i, rank, size, n, one = 1, pairs = 0, others = 0;
    MPI_Comm pair, rest;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; i++) {
        if (rank == i || rank == (i + 1) % size) {
            MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &pair);
            n = 0;
            MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, pair);
            MPI_Comm_free(&pair);
            pairs += n;
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &rest);
            n = 0;
            MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, rest);
            MPI_Comm_free(&rest);
            others += n;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    printf("rank %d: %d %d\n", rank, pairs, others);
    MPI_Finalize();
    return 0;
}
