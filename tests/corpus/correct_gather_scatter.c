// corpus: correct
// output-deterministic
// MPI_Gather and MPI_Scatter with root-only buffers.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, i, mine, back = 0, *all = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        all = malloc((size_t)size * sizeof(int));
    mine = rank * 2;
    MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (i = 0; i < size; i++)
            all[i] += 1;
    MPI_Scatter(all, 1, MPI_INT, &back, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0 got %d\n", back);
    free(all);
    MPI_Finalize();
    return 0;
}
