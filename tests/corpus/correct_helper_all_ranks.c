// corpus: correct
// output-deterministic
// A collective helper called unconditionally by every rank.
#include <mpi.h>
#include <stdio.h>

static void sync_all(MPI_Comm comm)
{
    MPI_Barrier(comm);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sync_all(MPI_COMM_WORLD);
    sync_all(MPI_COMM_WORLD);
    if (rank == 0)
        printf("synchronised twice\n");
    MPI_Finalize();
    return 0;
}
