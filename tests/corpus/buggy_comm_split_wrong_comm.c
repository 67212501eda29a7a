// corpus: buggy
// After MPI_Comm_split by parity, odd ranks reduce on the sub-communicator
// while even ranks reduce on MPI_COMM_WORLD: same collective, wrong communicator.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, sum = 0;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    local = rank;
    if (rank % 2 == 1)  // expect-note: rank % 2 == 1
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, half);  // may-warn (matches in half)
    else
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d sum %d\n", rank, sum);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
