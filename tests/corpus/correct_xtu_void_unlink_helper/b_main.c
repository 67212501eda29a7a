// corpus: correct
// output-deterministic
// order_dispose() (a_order.c) unlinks a node on every process but its owner: a
// per-process effect on the list links only.  The number of parts, set from
// MPI_Comm_size, stays the same on every rank, so the collectives under it match.
// Before the summaries listed what a function writes per-process, the void
// helper "returned the rank" and made everything its arguments reach per-process.
#include <mpi.h>
#include <stdio.h>

typedef struct node { struct node *next, *prev; int owner; } node;
typedef struct order { node head; int me; int parts; } order;

void order_init(order *o, MPI_Comm comm);
void order_add(order *o, node *n, int owner);
void order_dispose(order *o, node *n);

int main(int argc, char **argv)
{
    order o;
    node n;
    int sum = 0, one = 1;

    MPI_Init(&argc, &argv);
    order_init(&o, MPI_COMM_WORLD);
    order_add(&o, &n, 0);
    order_dispose(&o, &n);
    if (o.parts > 1)
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        sum = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (o.me == 0)
        printf("parts %d sum %d\n", o.parts, sum);
    MPI_Finalize();
    return 0;
}
