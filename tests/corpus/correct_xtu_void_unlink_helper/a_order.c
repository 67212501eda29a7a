// Cross-TU helper, compiled BEFORE its caller (Scotch's dorderDispose, dorder.c):
// a void function that returns early on the process owning a node and unlinks it
// on the others.  What it leaves per-process is the list links, nothing else the
// caller can reach; its summary says so (rank_writes "f:next:0", "f:prev:0").
#include <mpi.h>
#include <stdlib.h>

typedef struct node { struct node *next, *prev; int owner; } node;
typedef struct order { node head; int me; int parts; } order;

void order_init(order *o, MPI_Comm comm)
{
    MPI_Comm_rank(comm, &o->me);
    MPI_Comm_size(comm, &o->parts);
    o->head.next = o->head.prev = &o->head;
    o->head.owner = -1;
}

void order_add(order *o, node *n, int owner)
{
    n->owner = owner;
    n->next = o->head.next;
    n->prev = &o->head;
    o->head.next->prev = n;
    o->head.next = n;
}

void order_dispose(order *o, node *n)
{
    if (n->owner == o->me)  /* the owner keeps its node */
        return;
    n->next->prev = n->prev;
    n->prev->next = n->next;
}
