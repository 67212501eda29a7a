/* From scotch-7.0.3 src/libscotch/dorder_gather.c:150-272 (_SCOTCHdorderGather; the same
 * 'reduglbtab[i]' tests after dgraphAllreduceMaxSum() in dgraph_io_load.c, dgraph_scatter.c,
 * dmapping_io.c, ...: Scotch's 20 "root may differ" warnings and 19 others with a
 * counter-example on reduglbtab[i]).
 * Warned: "MPI_Gather on dordptr->proccomm: the root may differ between processes", note
 * "the root 'protnum' depends on a per-process result of MPI_Gatherv at
 * dorder_gather.c:469" -- a receive in ANOTHER function (_SCOTCHdorderGatherTree).
 * protnum = reduglbtab[0], and reduglbtab is the OUTPUT of dgraphAllreduceMaxSum(), a
 * wrapper around MPI_Allreduce with a user op that lives in another TU
 * (dgraph_allreduce.c).  A function-level reduction keeps exactly these two functions.
 * Correct: an allreduce output is the same on every rank.  Pattern: the output buffer of
 * a collective wrapper from another TU is taken to carry per-process data -- here its
 * per-process INPUT (the note names main's MPI_Comm_rank, through have_result = rank == 0);
 * in Scotch a Gatherv receive elsewhere in the TU.  The wrapper's summary records that it
 * calls MPI_Allreduce, not that glb is the allreduce's result.
 * Two TUs from this one file (the wrapper must be in another TU):
 *   mpicc-wrap -DHELPER -c 08-allreduce-wrapper-output-in-other-tu.c -o helper.o
 *   mpicc-wrap -c 08-allreduce-wrapper-output-in-other-tu.c -o main.o && mpicc-wrap main.o helper.o */
#include <mpi.h>
#include <stdlib.h>

int allreduce_max(long *loc, long *glb, int n, MPI_Comm comm);
#ifdef HELPER
int allreduce_max(long *loc, long *glb, int n, MPI_Comm comm)
{
    return MPI_Allreduce(loc, glb, n, MPI_LONG, MPI_MAX, comm) != MPI_SUCCESS;
}
#else
static int gather_tree(MPI_Comm comm, long *tree, int n, int root)   /* a receive elsewhere */
{
    int size, counts[64], displs[64];
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < size && i < 64; i++) { counts[i] = n; displs[i] = i * n; }
    return MPI_Gatherv(tree, n, MPI_LONG, tree + n, counts, displs, MPI_LONG, root, comm);
}

int gather(MPI_Comm comm, int have_result)
{
    int rank, size, root;
    long loc[2], glb[2], one = 1, all[64];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    loc[0] = have_result ? rank : 0; loc[1] = have_result;   /* who is the root */
    if (allreduce_max(loc, glb, 2, comm) != 0) return 1;
    if (glb[0] >= size) return 1;                              /* uniform */
    root = (int) glb[0];                                       /* uniform */
    return MPI_Gather(&one, 1, MPI_LONG, all, 1, MPI_LONG, root, comm);
}

int main(int argc, char **argv)
{
    int rank, size;
    long tree[130] = { 0 };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size <= 64) { gather(MPI_COMM_WORLD, rank == 0); gather_tree(MPI_COMM_WORLD, tree, 1, 0); }
    MPI_Finalize();
    return 0;
}
#endif
