// corpus: buggy
// Rank 0 reduces before the barrier; every other rank synchronises first and
// reduces afterwards.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = rank + 1;
    if (rank == 0) {  // expect-note: rank == 0
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        MPI_Barrier(MPI_COMM_WORLD);                                       // expect-warning: MPI_Barrier
    } else {
        MPI_Barrier(MPI_COMM_WORLD);                                       // expect-warning: MPI_Barrier
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    }
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
