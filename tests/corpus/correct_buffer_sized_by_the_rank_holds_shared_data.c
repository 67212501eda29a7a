// corpus: correct
// output-deterministic
// Each process allocates a buffer and a struct sized by its own rank. The pointers
// name one object on every process whatever its size, so what all processes store in
// it is the same everywhere, and the tests on it take one branch on every process.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int nsteps; int owner; } plan_t;

int main(int argc, char **argv)
{
    int rank, i, total = 0;
    int *counts;
    plan_t *plans;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    counts = malloc((rank + 1) * sizeof(int));
    counts[0] = 2;
    plans = calloc(rank + 1, sizeof *plans);
    plans->nsteps = 3;
    plans[rank].owner = rank;
    for (i = 0; i < counts[0]; i++)
        MPI_Allreduce(&plans[rank].owner, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (plans->nsteps == 3)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("total %d\n", total);
    free(plans);
    free(counts);
    MPI_Finalize();
    return 0;
}
