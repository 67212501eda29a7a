// corpus: correct
// output-deterministic
// Ranks choose their colour by parity; the collectives that follow are the
// same on all ranks, each on its own group.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, color, subsize = 0, one = 1;
    MPI_Comm group;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    color = (rank % 2 == 0) ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, 0, &group);
    MPI_Allreduce(&one, &subsize, 1, MPI_INT, MPI_SUM, group);
    MPI_Comm_free(&group);
    if (rank == 0)
        printf("group of rank 0 has %d or more ranks\n", subsize >= 1);
    MPI_Finalize();
    return 0;
}
