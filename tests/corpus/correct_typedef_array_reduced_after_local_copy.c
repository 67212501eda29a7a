// corpus: correct
// output-deterministic
// Scotch's vdgraphSeparateMlUncoarsen (vdgraph_separate_ml.c:368-450): reduction
// buffers of a typedef'd integer type ('Gnum'), where one path copies the local
// flags into the global buffer without reducing them (with one process there is no
// one to agree with) and returns, and the other path reduces them.  The buffers are
// arrays of an arithmetic type through a typedef: they hold no pointer and are
// tracked flow-sensitively like 'long reduglbtab[3]', so the copy on the returning
// path does not make the reduced flags per-process.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

typedef int64_t Gnum;
typedef Gnum Flag;

static int settle(MPI_Comm comm, Gnum mine)
{
    int rank, size;
    Flag reduloctab[3];
    Flag reduglbtab[3];

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    reduloctab[0] = rank;            /* per-process */
    reduloctab[1] = mine;
    reduloctab[2] = mine < 0;        /* an error flag */
    if (size == 1) {                 /* the same on every rank */
        reduglbtab[2] = reduloctab[2];
        return reduglbtab[2] != 0 ? -1 : (int) mine;
    }
    MPI_Allreduce(reduloctab, reduglbtab, 3, MPI_INT64_T, MPI_MAX, comm);
    if (reduglbtab[2] != 0)          /* the reduced flag: the same everywhere */
        return -1;
    MPI_Barrier(comm);
    return (int) reduglbtab[1];
}

int main(int argc, char **argv)
{
    int rank, got;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    got = settle(MPI_COMM_WORLD, 7);
    if (rank == 0)
        printf("settled %d\n", got);
    MPI_Finalize();
    return 0;
}
