// Cross-TU library (p4est_new_ext): every process fills a different number of
// quadrants, through the pointer qarray_push returns.  What that local pointer
// points to is a Quad; the forest it returns holds Quads only through a pointer, so
// under C's aliasing rule (C11 6.5p7) those writes cannot be the forest itself.  Its
// summary lists the fields of Quad, not "the returned memory" (effects.py).  Before,
// the caller took the whole forest, and the context it keeps, as per-process.
#include <mpi.h>
#include <stdlib.h>

typedef struct quad { long id; double w; } Quad;
typedef struct qarray { long n, cap; Quad *at; } QArray;
typedef struct forest { int rank; void *user; QArray quads; } Forest;

Quad *qarray_push(QArray *a);

Forest *forest_new(MPI_Comm comm, void *user)
{
    Forest *f = (Forest *) malloc(sizeof *f);
    Quad *q, tmpl;
    long i;

    MPI_Comm_rank(comm, &f->rank);
    f->user = user;
    f->quads.n = f->quads.cap = 0;
    f->quads.at = NULL;
    tmpl.w = 1.0;
    for (i = 0; i <= f->rank; i++) {
        tmpl.id = i;
        q = qarray_push(&f->quads);
        *q = tmpl;
    }
    return f;
}

void forest_destroy(Forest *f)
{
    free(f->quads.at);
    free(f);
}
