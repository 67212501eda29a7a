// corpus: buggy
// A do-while loop runs once on rank 0 and twice on the others.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, step = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    do {
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
        step++;
    } while (step < (rank == 0 ? 1 : 2));  // expect-note: step < (rank == 0 ? 1 : 2)
    printf("rank %d steps %d\n", rank, step);
    MPI_Finalize();
    return 0;
}
