// corpus: buggy
// Every rank but 0 joins an MPI_Allreduce; rank 0 skips it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = rank * 10;
    if (rank != 0) {  // expect-note: rank != 0
        MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        printf("rank %d total %d\n", rank, total);
    }
    MPI_Finalize();
    return 0;
}
