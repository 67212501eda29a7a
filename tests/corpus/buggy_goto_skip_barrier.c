// corpus: buggy
// A goto on rank 0 jumps over the MPI_Barrier the other ranks execute.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)  // expect-note: rank == 0
        goto done;
    MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d passed the barrier\n", rank);
done:
    MPI_Finalize();
    return 0;
}
