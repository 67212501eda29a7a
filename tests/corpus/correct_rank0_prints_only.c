// corpus: correct
// output-deterministic
// Rank-dependent branches that contain only output and local work.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, local = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("hello from the root of %d ranks\n", size > 0 ? 1 : 0);
    else
        local = rank * 2;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        local = 0;
    (void)local;
    MPI_Finalize();
    return 0;
}
