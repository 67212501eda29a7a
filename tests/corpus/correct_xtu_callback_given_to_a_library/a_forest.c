// Cross-TU library, compiled BEFORE the application (p4est's p4est_new_ext): it
// creates a different number of quadrants on every process and calls back the
// application's function on each.  This file cannot know what that function
// writes; its summary says it calls its parameter and what it hands it
// (calls_params, callback_writes: rankdep/callbacks.py), so that the caller applies
// the function it passes.  Before the sixteenth session the call was an unknown one,
// made with per-process arguments, so the summary said the whole forest it returns
// differs between processes.
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
