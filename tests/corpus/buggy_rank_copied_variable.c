// corpus: buggy
// The rank flows through arithmetic into another variable that guards a barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, leader;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    leader = (rank * 7) % 2;
    if (leader)  // expect-note: leader
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d leader %d\n", rank, leader);
    MPI_Finalize();
    return 0;
}
