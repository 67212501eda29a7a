// corpus: correct
// output-deterministic
// The callback is passed only when the context asks for it (p4est_wrap.c's
// `weight_exponent ? partition_weight : NULL`): the library calls back one of the
// conditional's functions, never the null arm.  The callback fills each quadrant's
// own data; the context the forest keeps is the same on every rank, so every rank
// runs the same number of steps.  Before, a conditional argument was an unknown
// function that could write all the library hands it, the forest and its context
// included.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct quad { long id; void *data; } Quad;
typedef struct forest { int rank; void *user; long nlocal; Quad *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, Quad *q);
typedef struct ctx { int steps; int fill; double scale; } Ctx;
typedef struct data { double u; } Data;

Forest *forest_new(MPI_Comm comm, init_t init_fn, void *user, size_t data_size);
void forest_destroy(Forest *f);

static void init_condition(Forest *f, long which, Quad *q)
{
    const Ctx *ctx = (const Ctx *) f->user;
    Data *d = (Data *) q->data;

    d->u = ctx->scale * (double) which;
}

int main(int argc, char **argv)
{
    Ctx c;
    Forest *f;
    Ctx *ctx;
    int me, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    c.steps = 3;
    c.fill = argc < 3;
    c.scale = 0.5;
    f = forest_new(MPI_COMM_WORLD, c.fill ? init_condition : NULL, &c, sizeof(Data));
    ctx = (Ctx *) f->user;
    for (t = 0; t < ctx->steps; t++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("steps: %d\n", ctx->steps);
    forest_destroy(f);
    MPI_Finalize();
    return 0;
}
