// corpus: buggy
// An `if (MPI_Allreduce(...) != MPI_SUCCESS)` check inside a branch only even
// ranks take.
#include <mpi.h>
#include <stdio.h>

static int reduce_even(int rank)
{
    int local = rank, sum = 0;

    if (rank % 2 == 0) {  // expect-note: rank % 2 == 0
        if (MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)  // expect-warning: MPI_Allreduce
            return -1;
    }
    return sum;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d sum %d\n", rank, reduce_even(rank));  // may-warn
    MPI_Finalize();
    return 0;
}
