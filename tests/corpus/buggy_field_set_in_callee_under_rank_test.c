// corpus: buggy
// A helper sets a field through its pointer parameter, and only rank 0 calls it: the
// field then differs between processes, and rank 0 alone waits in the barrier it
// guards while the others finalise.  Missed before the fourteenth session: a write
// to `param->field` in a callee was taken as the caller's business, and the caller
// gated only the locals it passed by address, not the fields behind a pointer.
#include <mpi.h>
#include <stdio.h>

typedef struct {
    int flags;
    int count;
} state;

static void mark_dirty(state *st)
{
    st->flags = 4;
}

static void update(state *st, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        mark_dirty(st);
    if (st->flags != 0)  // expect-note: st->flags != 0
        MPI_Barrier(comm);  // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    int rank;
    state s = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    update(&s, MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
