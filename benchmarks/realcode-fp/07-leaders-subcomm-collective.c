/* From p4est-2.2 sc/src/sc_shmem.c:388-395 and :430 (sc_shmem_allgather_common,
 * sc_shmem_prefix_common; 6 warnings).  Node roots (intranode rank 0) allgather over
 * 'internode', a communicator made of the node roots only; the others skip it.
 * Warned: "MPI_Allgather on internode may be called in a different order by different
 * processes", note "depends on the process rank (MPI_Comm_rank at sc_shmem.c:635)".
 * Correct: 'intrarank == 0' is true for EVERY member of internode (it was split with
 * colour 0 for intranode rank 0 and MPI_UNDEFINED for the others), so all members of
 * internode call the collective.  Pattern: per-communicator rank dependence (issue 9
 * item 1): a condition uniform over the communicator's group, not over the world. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, intrarank, in = 1, out[1024];
    MPI_Comm intranode, internode;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 4, rank, &intranode);   /* "nodes" of 4 */
    MPI_Comm_rank(intranode, &intrarank);
    MPI_Comm_split(MPI_COMM_WORLD, intrarank == 0 ? 0 : MPI_UNDEFINED, rank, &internode);
    if (intrarank == 0) {                        /* exactly the members of internode */
        MPI_Allgather(&in, 1, MPI_INT, out, 1, MPI_INT, internode);
        MPI_Comm_free(&internode);
    }
    MPI_Barrier(intranode);
    MPI_Comm_free(&intranode);
    MPI_Finalize();
    return 0;
}
