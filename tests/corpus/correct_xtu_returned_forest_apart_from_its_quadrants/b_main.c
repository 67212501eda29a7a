// corpus: correct
// output-deterministic
// The context the forest keeps is the same on every rank, so every rank runs the
// same number of steps (p4est's step3: p4est_new_ext, then p4est->user_pointer).
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct quad { long id; double w; } Quad;
typedef struct qarray { long n, cap; Quad *at; } QArray;
typedef struct forest { int rank; void *user; QArray quads; } Forest;
typedef struct ctx { int steps; double scale; } Ctx;

Forest *forest_new(MPI_Comm comm, void *user);
void forest_destroy(Forest *f);

int main(int argc, char **argv)
{
    Ctx c;
    Forest *f;
    Ctx *ctx;
    int me, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    c.steps = 3;
    c.scale = 0.5;
    f = forest_new(MPI_COMM_WORLD, &c);
    ctx = (Ctx *) f->user;
    for (t = 0; t < ctx->steps; t++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("steps: %d\n", ctx->steps);
    forest_destroy(f);
    MPI_Finalize();
    return 0;
}
