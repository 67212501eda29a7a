// Cross-TU helpers, compiled BEFORE their caller (Scotch's dgraph_induce.c).
// induce() is exported and calls the callback it is given; every call in this file
// passes fill_list, which fills the graph's array from halo data that differs
// between processes.  induce_list()'s summary must not list the graph's count as
// written per-process (rankdep/callbacks.py): before the sixteenth session the call
// through the parameter was unknown and wrote the halo's data through the graph.
#include <mpi.h>

typedef struct graph { int n; long *data; } Graph;

static void fill_list(Graph *g, const long *halo)
{
    g->data[0] = halo[0];
}

int induce(Graph *g, void (*fill)(Graph *, const long *), const long *halo)
{
    fill(g, halo);
    return 0;
}

int induce_list(Graph *g, const long *halo)
{
    return induce(g, fill_list, halo);
}
