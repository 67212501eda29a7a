// corpus: correct
// output-deterministic
// Scotch's dgraphInduce2 pattern in one file: induce() calls the callback it is
// given, and every call in the file passes fill_list or fill_part, which fill the
// graph's array from halo data that differs between processes.  The graph's count
// is the same everywhere, so every rank takes the barrier.  Before the sixteenth
// session the call through the parameter was an unknown call that wrote the halo's
// per-process data through every pointer it was given, the count among it, and the
// barrier was warned (rankdep/callbacks.py).
#include <mpi.h>
#include <stdio.h>

typedef struct graph { int n; long *data; } Graph;

static void fill_list(Graph *g, const long *halo)
{
    g->data[0] = halo[0];
}

static void fill_part(Graph *g, const long *halo)
{
    g->data[1] = halo[0] + 1;
}

static int induce(Graph *g, void (*fill)(Graph *, const long *), const long *halo)
{
    fill(g, halo);
    return 0;
}

int main(int argc, char **argv)
{
    int me;
    long halo[1], data[2] = {0, 0};
    Graph g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    g.n = 2;
    g.data = data;
    halo[0] = me;
    induce(&g, fill_list, halo);
    induce(&g, fill_part, halo);
    if (g.n > 1)
        MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("n = %d\n", g.n);
    MPI_Finalize();
    return 0;
}
