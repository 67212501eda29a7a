// corpus: buggy
// 'mine' starts as a duplicate of MPI_COMM_SELF but is later overwritten with a
// duplicate of MPI_COMM_WORLD: the barrier on it under the rank test is a real hang.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm mine;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_SELF, &mine);
    MPI_Comm_free(&mine);
    mine = MPI_COMM_WORLD;
    if (rank != 0)  // expect-note: rank
        MPI_Barrier(mine);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
