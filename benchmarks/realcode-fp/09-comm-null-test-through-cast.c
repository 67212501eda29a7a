/* From sundials-6.4.1 src/nvector/manyvector/nvector_manyvector.c (N_VDotProd :733 and
 * the other reductions of the MPIManyVector; re-run on fcbf2a8, see realcode-triage.md).
 * Warned: "MPI_Allreduce on ((N_VectorContent_MPIManyVector) x->content)->comm may not be
 * reached by all processes", counter-example on
 * '((N_VectorContent_MPIManyVector) x->content)->comm != MPI_COMM_NULL'.
 * Correct: a collective on comm involves only its members, and 'comm != MPI_COMM_NULL' is
 * true on every member (issue 9 item 1).  Pattern: the per-communicator fact about the
 * MPI_COMM_NULL test holds when the handle is written 'x->typed->comm' (dot_typed, silent)
 * but not when it is reached through a cast of a 'void *' field, as SUNDIALS writes it
 * (dot_cast, warned).  The communicator is per-process here only through fp-06's pattern
 * (a store after an MPI error check on the rank); the same check in both functions. */
#include <mpi.h>
#include <stdlib.h>

typedef struct { MPI_Comm comm; } content;
typedef struct { void *content; content *typed; } vec;

static int sub_rank(MPI_Comm comm)
{
    int rank;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    return rank;
}

static double dot_typed(const vec *x, double lsum)          /* silent */
{
    double gsum = lsum;
    if (x->typed->comm != MPI_COMM_NULL)
        MPI_Allreduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, x->typed->comm);
    return gsum;
}

static double dot_cast(const vec *x, double lsum)           /* warned */
{
    double gsum = lsum;
    if (((content *) x->content)->comm != MPI_COMM_NULL)
        MPI_Allreduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, ((content *) x->content)->comm);
    return gsum;
}

int main(int argc, char **argv)
{
    content c;
    vec v;
    MPI_Init(&argc, &argv);
    c.comm = MPI_COMM_NULL;
    if (sub_rank(MPI_COMM_WORLD) >= 0)      /* an MPI error check: true everywhere */
        c.comm = MPI_COMM_WORLD;
    v.content = &c;
    v.typed = &c;
    dot_typed(&v, 1.0);
    dot_cast(&v, 1.0);
    MPI_Finalize();
    return 0;
}
