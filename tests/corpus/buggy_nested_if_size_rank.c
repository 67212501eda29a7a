// corpus: buggy
// A size test (same on all ranks) encloses a rank test: only the inner
// condition is to blame.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) {
        if (rank == size - 1)  // expect-note: rank == size - 1
            MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    printf("rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
