// Cross-TU library, compiled BEFORE the application (hypre's hypre_SeqVectorCreate):
// a vector stores the size it is given and a constant number of components.  Its
// summary lists which writes the arguments reach (arg_writes: the size only), so a
// caller passing a per-process size makes only the size per-process.  Before, every
// field the function writes took the caller's per-process argument, the count too.
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
