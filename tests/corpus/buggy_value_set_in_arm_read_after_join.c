// corpus: buggy
// 'count' is computed inside the arm of a rank test; inside that arm every process
// agrees on it, but after the join it differs (set on rank 0 only), so the loop of
// barriers that follows runs a different number of rounds on different processes.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count = 1, i, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        count = 2;
        for (i = 0; i < count; i++)
            total += i;
    }
    for (i = 0; i < count; i++)  // expect-note: i < count
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d: %d\n", rank, total);
    MPI_Finalize();
    return 0;
}
