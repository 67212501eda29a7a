// corpus: correct
// output-deterministic
// An MPI_Barrier in the for-loop header with a constant trip count.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, n = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++, MPI_Barrier(MPI_COMM_WORLD))
        n += rank;
    if (rank == 0)
        printf("iterations %d\n", i);
    MPI_Finalize();
    return 0;
}
