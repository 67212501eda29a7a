// corpus: buggy
// Rank 0 returns from main without calling MPI_Finalize; the other ranks do.
// never-printed: finished (mpiexec tears the job down when a rank exits without MPI_Finalize)
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {  // expect-note: rank == 0
        printf("rank 0 done early\n");
        return 0;     // expect-exit-site
    }
    MPI_Finalize();   // expect-warning: MPI_Finalize
    printf("rank %d finished\n", rank);
    return 0;
}
