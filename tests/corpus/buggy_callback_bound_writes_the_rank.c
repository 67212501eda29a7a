// corpus: buggy
// The callback bound to induce()'s parameter stores the rank in the graph's count,
// so only some ranks take the barrier: walking the bound callback instead of an
// unknown call must keep the warning (rankdep/callbacks.py).
#include <mpi.h>
#include <stdio.h>

typedef struct graph { int n; long *data; } Graph;

static void fill_rank(Graph *g, const long *halo)
{
    g->n = (int) halo[0];
}

static int induce(Graph *g, void (*fill)(Graph *, const long *), const long *halo)
{
    fill(g, halo);
    return 0;
}

int main(int argc, char **argv)
{
    int me;
    long halo[1];
    Graph g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    g.n = 2;
    g.data = NULL;
    halo[0] = me;
    induce(&g, fill_rank, halo);
    if (g.n > 0)  // expect-note: g.n > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    MPI_Finalize();
    return 0;
}
