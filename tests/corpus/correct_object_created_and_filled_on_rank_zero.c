// corpus: correct
// output-deterministic
// hypre's hypre_ParVectorReadIJ: rank 0 alone creates a vector and fills it with a
// constant before the others create theirs. The object exists only where it was
// made, so its constant field is the same on every process that has one, and a
// test of it on another vector of the type takes one branch everywhere.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int size; int nvectors; } vector_t;

static vector_t *vector_create(int size)
{
    vector_t *v = malloc(sizeof *v);
    v->size = size;
    v->nvectors = 1;
    return v;
}

int main(int argc, char **argv)
{
    int rank, sum = 0;
    vector_t *input = NULL, *work;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        input = vector_create(40);
    work = vector_create(rank + 1);
    if (work->nvectors == 1)
        MPI_Allreduce(&work->size, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("sum %d input %d\n", sum, input->size);
    free(input);
    free(work);
    MPI_Finalize();
    return 0;
}
