// corpus: correct
// output-deterministic
// Node leaders (rank 0 of each "node" of two ranks) allgather over a
// communicator made of exactly the leaders (colour 0 for them,
// MPI_UNDEFINED for the others): 'intrarank == 0' is true on every member
// of leaders, so all of its members call the collective (p4est sc_shmem.c).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, intrarank, in = 1, out[64];
    MPI_Comm intranode, leaders;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &intranode);
    MPI_Comm_rank(intranode, &intrarank);
    MPI_Comm_split(MPI_COMM_WORLD, intrarank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
    if (intrarank == 0) {
        MPI_Allgather(&in, 1, MPI_INT, out, 1, MPI_INT, leaders);
        MPI_Comm_free(&leaders);
    }
    MPI_Barrier(intranode);
    MPI_Comm_free(&intranode);
    if (rank == 0)
        printf("leaders gathered %d\n", out[0]);
    MPI_Finalize();
    return 0;
}
