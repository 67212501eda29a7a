// A constructor in another file that stores the rank in the vector it makes.
#include <mpi.h>
#include <stdlib.h>

typedef struct { int size; int nvectors; } vector_t;

vector_t *vector_create(int size)
{
    vector_t *v = malloc(sizeof *v);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v->size = size;
    v->nvectors = rank + 1;
    return v;
}
