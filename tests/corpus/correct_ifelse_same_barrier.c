// corpus: correct
// output-deterministic
// Both arms of a rank-dependent if call MPI_Barrier: the sequences match.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, work = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        work = 100;
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        work = rank;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("work %d\n", work);
    MPI_Finalize();
    return 0;
}
