// Cross-TU helper, compiled BEFORE its caller.  Every call of induce() in this file
// passes fill_list, so its summary is made with that callback and lists it
// (FunctionSummary.callbacks); a caller that passes another function gets the call
// through the parameter as an unknown call.
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
