// corpus: buggy
// Ranks are paired into sub-communicators of two; only sub-rank 0 of each pair
// calls MPI_Barrier on it before it is freed.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, subrank;
    MPI_Comm pair;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
    MPI_Comm_rank(pair, &subrank);
    if (subrank == 0)  // expect-note: subrank == 0
        MPI_Barrier(pair);  // expect-warning: MPI_Barrier
    printf("rank %d subrank %d\n", rank, subrank);
    MPI_Comm_free(&pair);
    MPI_Finalize();
    return 0;
}
