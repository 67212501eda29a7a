// corpus: buggy
// switch on the rank: case 0 runs MPI_Allreduce, the default case MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank) {  // expect-note: switch (rank)
    case 0:
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        break;
    default:
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
        break;
    }
    printf("rank %d y %d\n", rank, y);
    MPI_Finalize();
    return 0;
}
