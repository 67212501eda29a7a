// Cross-TU helper, compiled BEFORE its caller: setup() runs a static loader on
// rank 0 only, so the global it sets differs between processes afterwards.  The
// loader's walk saw that test only as its entry gate, which no summary lists, so
// before the fifteenth session setup()'s summary left n_steps out and b_main.c
// compiled silently (solver._rank_tokens: the writes of a gated call).
#include <mpi.h>

int n_steps;

static void load_defaults(void)
{
    n_steps = 3;
}

void setup(MPI_Comm comm)
{
    int me;
    MPI_Comm_rank(comm, &me);
    if (me == 0)
        load_defaults();
}
