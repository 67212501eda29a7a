// corpus: buggy
// nprocs: 2
// Like correct_table_after_alone_return.c, but each process opens the file on
// MPI_COMM_SELF, alone there, and returns early on a value of its own (its world
// rank): process 1 stores nothing, so only process 0 calls the MPI_Barrier.  Being
// alone in the communicator voids the communicator's rank, not other seeds.
#include <mpi.h>
#include <stdio.h>

static MPI_Comm files[8];
static int nfiles;

static int file_open(MPI_Comm comm, int token)
{
    int rank, nprocs;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0 && nprocs == 1 && token > 0)
        return -1;
    files[nfiles] = comm;
    return nfiles++;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    file_open(MPI_COMM_SELF, rank);
    if (nfiles > 0)  // expect-note: nfiles > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d\n", rank);
    MPI_Finalize();
    return 0;
}
