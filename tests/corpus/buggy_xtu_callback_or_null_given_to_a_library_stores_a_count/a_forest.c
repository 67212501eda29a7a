// Cross-TU library, compiled BEFORE the application: it calls back the
// application's function on each of its quadrants, a different number on every
// process (the correct_xtu_callback_given_to_a_library library).
#include <mpi.h>
#include <stdlib.h>

typedef struct quad { long id; void *data; } Quad;
typedef struct forest { int rank; void *user; long nlocal; Quad *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, Quad *q);

static void init_one(Forest *f, long which, Quad *q, init_t init_fn)
{
    q->id = which;
    if (init_fn != NULL)
        init_fn(f, which, q);
}

Forest *forest_new(MPI_Comm comm, init_t init_fn, void *user, size_t data_size)
{
    Forest *f = (Forest *) malloc(sizeof *f);
    long i;

    MPI_Comm_rank(comm, &f->rank);
    f->user = user;
    f->nlocal = f->rank + 1;
    f->quads = (Quad *) malloc(sizeof(Quad) * (size_t) f->nlocal);
    for (i = 0; i < f->nlocal; i++) {
        f->quads[i].data = malloc(data_size);
        init_one(f, i, &f->quads[i], init_fn);
    }
    return f;
}

void forest_destroy(Forest *f)
{
    long i;

    for (i = 0; i < f->nlocal; i++)
        free(f->quads[i].data);
    free(f->quads);
    free(f);
}
