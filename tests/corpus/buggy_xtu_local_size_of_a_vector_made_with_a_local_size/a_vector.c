// Cross-TU library, compiled BEFORE the application: a vector stores the size it is
// given (the correct_xtu_constant_count_of_a_vector_made_with_a_local_size library).
#include <stdlib.h>

typedef struct vec { int size; int ncomp; double *data; } Vec;

Vec *vec_create(int size)
{
    Vec *v = (Vec *) malloc(sizeof *v);

    v->size = size;
    v->ncomp = 1;
    v->data = (double *) calloc((size_t) size, sizeof(double));
    return v;
}

void vec_destroy(Vec *v)
{
    free(v->data);
    free(v);
}
