// corpus: correct
// output-deterministic
// FFTW's planners (transpose-alltoall.c, benchmarks/realcode-fp/04): a child plan may be
// NULL on some processes only; after 'if (any_true(!child, comm)) goto nada;' (an OR
// vote) every process has one, so 'if (child)' in apply(), read through the plan's
// field, is taken by all.  The pointer differs between processes; its truth does not.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct plan { int *child; int n; MPI_Comm comm; };

static int any_true(int condition, MPI_Comm comm)
{
    int result;
    MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm);
    return result;
}

static struct plan *mkplan(MPI_Comm comm, int n)
{
    int me, np, b, *child;
    struct plan *pln;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    b = n / np + (me < n % np);
    child = b ? calloc((size_t)b, sizeof(int)) : NULL;  /* NULL where the block is empty */
    if (any_true(!child, comm))
        goto nada;
    pln = malloc(sizeof *pln);
    pln->child = child, pln->n = n, pln->comm = comm;
    return pln;
nada:
    free(child);
    return NULL;
}

static int apply(const struct plan *ego)
{
    int *child = ego->child, mine = ego->n, total = 0;
    if (child)                          /* true on every process */
        MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, ego->comm);
    return total;
}

int main(int argc, char **argv)
{
    int rank, n;
    struct plan *pln;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (n = 1; n <= 64; n *= 8) {       /* n = 1: empty blocks, the vote fails */
        if ((pln = mkplan(MPI_COMM_WORLD, n)) != NULL)
            printf("rank %d n %d total %d\n", rank, n, apply(pln));
        else
            printf("rank %d n %d no plan\n", rank, n);
    }
    MPI_Finalize();
    return 0;
}
