// corpus: correct
// output-deterministic
// hdf5's testpar/t_mpi.c, reduced: the communicator split by colour is used only by
// its members, inside the arm of their colour, before a collective on the world
// that both arms make.  Every member of the split runs its collectives at the same
// place among its others, so they cannot hold up anybody outside it, and the two
// barriers match: the split's collectives do not count in the world's order.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, colour, sum = 0;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    colour = rank < size - 1 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &comm);
    if (colour == 0) {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&comm);
    if (rank == 0)
        printf("sum of the first ranks %d\n", sum);
    MPI_Finalize();
    return 0;
}
