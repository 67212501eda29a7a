// corpus: buggy
// copy_count() stores the halo, the rank, in the graph's count, through induce() in
// the other file; induce()'s summary was made with fill_list only, so this call
// must be taken as an unknown one and the barrier warned.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct graph { int n; long *data; } Graph;
int induce(Graph *g, void (*fill)(Graph *, const long *), const long *halo);

static void copy_count(Graph *g, const long *halo)
{
    g->n = (int) halo[0];
}

int main(int argc, char **argv)
{
    int me;
    long *halo;
    Graph g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    halo = (long *) malloc(sizeof *halo);
    halo[0] = me;
    g.n = 2;
    g.data = NULL;
    induce(&g, copy_count, halo);
    if (g.n > 0)  // expect-note: g.n > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    free(halo);
    MPI_Finalize();
    return 0;
}
