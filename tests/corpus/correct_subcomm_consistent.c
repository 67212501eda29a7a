// corpus: correct
// output-deterministic
// Each parity group reduces on its own sub-communicator; every rank uses the
// same communicator variable and the same sequence.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
    MPI_Barrier(half);
    MPI_Comm_free(&half);
    if (rank == 0)
        printf("even sum computed\n");
    MPI_Finalize();
    return 0;
}
