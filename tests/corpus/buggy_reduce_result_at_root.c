// corpus: buggy
// MPI_Reduce defines its result only at the root: the test on it is true on
// rank 0 and false elsewhere.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local = 1, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(&local, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (total > 0)  // expect-note: total > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d total %d\n", rank, total);
    MPI_Finalize();
    return 0;
}
