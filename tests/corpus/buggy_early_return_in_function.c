// corpus: buggy
// A function returns early on rank 0 before its MPI_Barrier; rank 0 then
// reaches MPI_Finalize while the others wait in the barrier.
#include <mpi.h>
#include <stdio.h>

static void exchange(int rank)
{
    if (rank == 0) {  // expect-note: rank == 0
        printf("rank 0 has nothing to exchange\n");
        return;       // expect-exit-site
    }
    MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    exchange(rank);  // may-warn
    MPI_Finalize();
    return 0;
}
