// corpus: buggy
// Odd ranks call reduce_all(), defined in a file compiled AFTER this one
// (b_helper.c): only the link step can see that it runs a collective.
#include <mpi.h>
#include <stdio.h>

int reduce_all(int value);

int main(int argc, char **argv)
{
    int rank, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 1)  // expect-note: rank % 2 == 1
        sum = reduce_all(rank);  // expect-link-warning: reduce_all(); expect-dynamic: reduce_all()|MPI_Allreduce
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
