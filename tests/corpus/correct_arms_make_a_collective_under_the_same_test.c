// corpus: correct
// output-deterministic
// Each arm of the rank test makes its collectives under tests that read only what
// every process held before it (a local set from argc, a counted loop over it): the
// arms' expressions are equal (barrier matching §5), so every process makes the same
// sequence whichever arm it takes.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, sum = 0, rounds = argc + 1, verbose = argc > 2;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("rank 0 leads %d rounds\n", rounds);
        if (verbose)
            MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < rounds; i++)
            MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
        sum = rank;
        if (verbose)
            MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < rounds; i++)
            MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    printf("rank %d: sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
