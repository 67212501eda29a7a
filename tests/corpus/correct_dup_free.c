// corpus: correct
// output-deterministic
// Collective constructor and destructor called by every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, n = 0;
    MPI_Comm lib;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    MPI_Comm_size(lib, &n);
    MPI_Barrier(lib);
    MPI_Comm_free(&lib);
    if (rank == 0)
        printf("dup ok %d\n", n > 0);
    MPI_Finalize();
    return 0;
}
