// corpus: buggy
// A switch on the rank calls exit() in one case; the others continue into
// MPI_Barrier.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
// never-printed: finished

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank) {  // expect-note: switch (rank)
    case 0:
        printf("rank 0 quits\n");
        exit(0);  // expect-exit-site
    default:
        break;
    }
    MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    MPI_Finalize();  // expect-warning: MPI_Finalize
    printf("rank %d finished\n", rank);
    return 0;
}
