// corpus: buggy
// A backward goto retries an MPI_Allreduce once more on rank 0 only.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, tries = 0, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
again:
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    tries++;
    if (rank == 0 && tries < 2)  // expect-note: rank == 0
        goto again;
    printf("rank %d tries %d\n", rank, tries);
    MPI_Finalize();
    return 0;
}
