// corpus: buggy
// Like the MPICH helper's array of MPI_COMM_SELF duplicates, but slot 0 holds a
// duplicate of MPI_COMM_WORLD: a barrier on it under a test of the rank leaves the
// odd ranks freeing it while the even ones wait in the barrier.  (The loop frees a
// per-process number of slots: warned too, since the array holds more than SELF
// duplicates.)
#include <mpi.h>
#include <stdio.h>

#define MAX_DUPS 4
static MPI_Comm dups[MAX_DUPS];
static int num_dups;

static void make(int rank)
{
    MPI_Comm_dup(MPI_COMM_WORLD, &dups[0]);
    num_dups = 1 + rank % 2;
    for (int i = 1; i < num_dups; i++)
        MPI_Comm_dup(MPI_COMM_SELF, &dups[i]);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    make(rank);
    if (rank % 2 == 0)  // expect-note: rank
        MPI_Barrier(dups[0]);  // expect-warning: MPI_Barrier
    for (int i = num_dups - 1; i >= 0; i--)  // expect-note: i >= 0
        MPI_Comm_free(&dups[i]);  // expect-warning: MPI_Comm_free
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
