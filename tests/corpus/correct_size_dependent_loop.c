// corpus: correct
// output-deterministic
// A while loop whose trip count depends on the size only (log2 of size).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, span = 1, rounds = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    while (span < size) {
        MPI_Barrier(MPI_COMM_WORLD);
        span *= 2;
        rounds++;
    }
    if (rank == 0)
        printf("rounds>0 %d\n", rounds > 0);
    MPI_Finalize();
    return 0;
}
