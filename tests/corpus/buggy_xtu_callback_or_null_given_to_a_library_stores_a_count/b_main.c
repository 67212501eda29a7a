// corpus: buggy
// The callback, passed only when the context asks for it (`c.count ? count_quads :
// NULL`), stores the last quadrant's number in the context the forest keeps: the
// number of quadrants differs between processes, so the ranks run different numbers
// of steps.  The conditional's function is called back as if passed alone.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct quad { long id; void *data; } Quad;
typedef struct forest { int rank; void *user; long nlocal; Quad *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, Quad *q);
typedef struct ctx { int steps; int count; double scale; } Ctx;

Forest *forest_new(MPI_Comm comm, init_t init_fn, void *user, size_t data_size);
void forest_destroy(Forest *f);

static void count_quads(Forest *f, long which, Quad *q)
{
    Ctx *ctx = (Ctx *) f->user;

    (void) q;
    ctx->steps = (int) which + 1;
}

int main(int argc, char **argv)
{
    Ctx c;
    Forest *f;
    Ctx *ctx;
    int me, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    c.steps = 0;
    c.count = argc < 3;
    c.scale = 1.0;
    f = forest_new(MPI_COMM_WORLD, c.count ? count_quads : NULL, &c, sizeof(double));
    ctx = (Ctx *) f->user;
    for (t = 0; t < ctx->steps; t++)  // expect-note: t < ctx->steps
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    forest_destroy(f);
    MPI_Finalize();
    return 0;
}
