// corpus: correct
// output-deterministic
// The graph's count is the same on every rank after induce_list(), whatever the
// halo holds, so every rank takes the barrier.
#include <mpi.h>
#include <stdio.h>

typedef struct graph { int n; long *data; } Graph;
int induce_list(Graph *g, const long *halo);

int main(int argc, char **argv)
{
    int me;
    long halo[1], data[1] = {0};
    Graph g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    g.n = 2;
    g.data = data;
    halo[0] = me;
    induce_list(&g, halo);
    if (g.n > 1)
        MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("n = %d\n", g.n);
    MPI_Finalize();
    return 0;
}
