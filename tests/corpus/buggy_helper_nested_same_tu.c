// corpus: buggy
// Two levels of helpers reach MPI_Allreduce; odd ranks skip the outer helper.
#include <mpi.h>
#include <stdio.h>

static int global_sum(int value)
{
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}

static int checksum(int rank)
{
    return global_sum(rank * 3);
}

int main(int argc, char **argv)
{
    int rank, sum = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0)  // expect-note: rank % 2 == 0
        sum = checksum(rank);  // expect-warning: checksum()|MPI_Allreduce
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
