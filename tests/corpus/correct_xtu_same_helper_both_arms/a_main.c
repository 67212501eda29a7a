// corpus: correct
// output-deterministic
// Both arms of a rank-dependent branch call the same cross-TU helper, which is
// compiled after this file: every rank runs the same collective sequence.
#include <mpi.h>
#include <stdio.h>

int exchange(int value);

int main(int argc, char **argv)
{
    int rank, result;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        result = exchange(100);
    else
        result = exchange(rank);
    if (rank == 0)
        printf("result %d\n", result);
    MPI_Finalize();
    return 0;
}
