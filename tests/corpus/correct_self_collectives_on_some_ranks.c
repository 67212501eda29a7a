// corpus: correct
// output-deterministic
// MPI_COMM_SELF, and a duplicate of it, hold the calling process only: a collective on
// them under a test of the rank involves nobody else, so no process can be left waiting.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size = 0, sum = 0, one = 1;
    MPI_Comm mine;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        MPI_Comm_dup(MPI_COMM_SELF, &mine);
        MPI_Barrier(mine);
        MPI_Comm_size(mine, &size);
        MPI_Comm_free(&mine);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d sum %d size %d\n", rank, sum, size);
    MPI_Finalize();
    return 0;
}
