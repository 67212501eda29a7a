// corpus: buggy
// Odd ranks call exit(0) before MPI_Finalize.
// never-printed: finished (mpiexec tears the job down when a rank exits without MPI_Finalize)
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 1) {  // expect-note: rank % 2 == 1
        printf("rank %d leaving\n", rank);
        exit(0);          // expect-exit-site
    }
    MPI_Finalize();       // expect-warning: MPI_Finalize
    printf("rank %d finished\n", rank);
    return 0;
}
