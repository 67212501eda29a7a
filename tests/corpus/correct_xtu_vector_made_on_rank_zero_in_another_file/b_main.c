// corpus: correct
// output-deterministic
// hypre's hypre_ParVectorCreate, in another file: called on rank 0 alone and with a
// size per process. Only the size differs; the constant field is the same.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int size; int nvectors; } vector_t;
vector_t *vector_create(int size);

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
