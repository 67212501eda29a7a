// corpus: buggy
// The last rank exits inside a helper before the MPI_Barrier the others reach.
// never-printed: finished (mpiexec tears the job down when a rank exits without MPI_Finalize)
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void finish_step(int rank, int size)
{
    if (rank == size - 1) {  // expect-note: rank == size - 1
        printf("rank %d stops\n", rank);
        exit(0);             // expect-exit-site
    }
    MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    finish_step(rank, size);  // may-warn
    MPI_Finalize();
    printf("rank %d finished\n", rank);
    return 0;
}
