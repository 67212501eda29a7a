// corpus: buggy
// rand() seeded differently per process: the process that draws the largest
// number calls MPI_Allreduce on its own.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, draw, best = 0, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    srand((unsigned)rank + 1u);
    draw = rand();
    MPI_Allreduce(&draw, &best, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (draw == best)  // expect-note: draw == best
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d y %d\n", rank, y);
    MPI_Finalize();
    return 0;
}
