// corpus: buggy
// A new object whose field is set on rank 0 only, after all processes made it: the
// object is the same on every process, but what it holds is not.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int nsteps; } plan_t;

int main(int argc, char **argv)
{
    int rank, i;
    plan_t *plan;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    plan = malloc(sizeof *plan);
    plan->nsteps = 1;
    if (rank == 0)
        plan->nsteps = 2;
    for (i = 0;
         i < plan->nsteps; // expect-note: i < plan->nsteps
         i++)
        MPI_Barrier(MPI_COMM_WORLD); // expect-warning: MPI_Barrier
    printf("done\n"); // never-printed: done
    free(plan);
    MPI_Finalize();
    return 0;
}
