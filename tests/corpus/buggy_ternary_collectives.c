// corpus: buggy
// A rank-dependent ?: picks which collective is evaluated.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rc = (rank == 0)  // expect-note: rank == 0
        ? MPI_Barrier(MPI_COMM_WORLD)  // expect-warning: MPI_Barrier
        : MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d rc %d\n", rank, rc);
    MPI_Finalize();
    return 0;
}
