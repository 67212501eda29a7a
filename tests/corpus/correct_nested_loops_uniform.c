// corpus: correct
// output-deterministic
// Nested loops with bounds from the size; a rank-dependent branch inside
// touches only local data.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i, j, acc = 0, tot = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; i++) {
        for (j = 0; j < 2; j++) {
            if (i == rank)
                acc += j;
            MPI_Allreduce(&acc, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("tot %d\n", tot);
    MPI_Finalize();
    return 0;
}
