// corpus: correct
// output-deterministic
// Split by colour = (rank < newsize): the collectives on the new
// communicator run under 'if (rank < newsize)', which is true on every
// member of it (they are exactly the ranks of colour 1).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, newsize, color, one = 1, total = 0;
    MPI_Comm newcomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    newsize = size / 2 + 1;
    color = (rank < newsize);
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &newcomm);
    if (rank < newsize) {
        MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, newcomm);
        MPI_Barrier(newcomm);
        MPI_Comm_free(&newcomm);
    } else {
        MPI_Comm_free(&newcomm);
    }
    if (rank == 0)
        printf("the first group has %d ranks\n", total);
    MPI_Finalize();
    return 0;
}
