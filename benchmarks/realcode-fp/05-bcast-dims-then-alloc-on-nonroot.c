/* From p4est-2.2 src/p4est_connectivity.c:297-360 (p4est_connectivity_bcast and its
 * p8est twin): 27 warnings.  Root fills a dims struct from its object, everybody
 * broadcasts it, non-roots allocate an object from the broadcast dims, then all test
 * 'if (conn->num_vertices > 0)' and broadcast the arrays.
 * Warned: "MPI_Bcast on mpicomm may not be reached by all processes" at :342, :345, :352
 * ..., note "depends on the process rank (MPI_Comm_rank at :297)" on conn->num_vertices;
 * in the p8est twin also "MPI_Bcast on mpicomm: the root may differ between processes"
 * with note "the root 'root' depends on the process rank" -- root is a parameter that is
 * only COMPARED with the rank ('if (mpirank == root)').
 * Correct: on root conn->num_vertices was broadcast from itself; elsewhere conn was
 * built from the broadcast dims, so it is the same on every rank.  Pattern: a pointer
 * that points to different objects on root / non-root (conn_in vs. new object) whose
 * contents are equal by construction (value from a broadcast). */
#include <mpi.h>
#include <stdlib.h>

typedef struct { int num_vertices; double *vertices; } conn_t;

conn_t *conn_bcast(conn_t *conn_in, int root, MPI_Comm comm)
{
    int rank, dims = -1;
    conn_t *conn;
    MPI_Comm_rank(comm, &rank);
    if (rank == root) { conn = conn_in; dims = conn->num_vertices; }
    else conn = NULL;
    MPI_Bcast(&dims, 1, MPI_INT, root, comm);
    if (rank != root) {
        conn = malloc(sizeof *conn);
        conn->num_vertices = dims;
        conn->vertices = malloc(3 * (dims > 0 ? dims : 1) * sizeof(double));
    }
    if (conn->num_vertices > 0)
        MPI_Bcast(conn->vertices, 3 * conn->num_vertices, MPI_DOUBLE, root, comm);
    MPI_Barrier(comm);
    return conn;
}

int main(int argc, char **argv)
{
    int rank;
    conn_t c = { 2, NULL }, *got;
    double v[6] = { 0, 1, 2, 3, 4, 5 };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    c.vertices = v;
    got = conn_bcast(rank == 0 ? &c : NULL, 0, MPI_COMM_WORLD);
    if (got != &c) { free(got->vertices); free(got); }
    MPI_Finalize();
    return 0;
}
