// corpus: buggy
// The iteration count is chosen by a rank-dependent ternary before the loop.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, n, i, local = 2, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    n = (rank == 0) ? 2 : 1;
    for (i = 0; i < n; i++)  // expect-note: i < n
        MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d total %d\n", rank, total);
    MPI_Finalize();
    return 0;
}
