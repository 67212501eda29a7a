// corpus: buggy
// The forest's summary lists the fields of the quadrants it fills per-process
// (effects.py: what a local Quad pointer points to cannot be the forest it returns,
// so its writes are Quad fields, not "the returned memory").  The first quadrant's
// id is 100 * rank: rank 0 alone enters the barrier.  Silent if the summary dropped
// those writes instead of naming the fields.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct quad { long id; double w; } Quad;
typedef struct qarray { long n, cap; Quad *at; } QArray;
typedef struct forest { int rank; void *user; QArray quads; } Forest;

Forest *forest_new(MPI_Comm comm, void *user);
void forest_destroy(Forest *f);
Quad *qarray_at(QArray *a, long i);

int main(int argc, char **argv)
{
    Forest *f;
    Quad *first;
    int me;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    f = forest_new(MPI_COMM_WORLD, NULL);
    first = qarray_at(&f->quads, 0);
    if (first->id == 0)  // expect-note: first->id == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    forest_destroy(f);
    MPI_Finalize();
    return 0;
}
