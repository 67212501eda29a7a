// corpus: correct
// output-deterministic
// A usage error path (too many arguments) is taken by all ranks or none; only
// rank 0 prints the message.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 3) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [n]\n", argv[0]);
        MPI_Finalize();
        exit(1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("arguments ok\n");
    MPI_Finalize();
    return 0;
}
