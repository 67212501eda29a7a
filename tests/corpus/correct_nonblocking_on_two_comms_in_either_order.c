// corpus: correct
// output-deterministic
// Rank 0 starts the reduction on MPI_COMM_WORLD before duplicating 'dup', the
// others the other way round, then everybody waits for both (MPICH's
// test/mpi/comm/comm_idup_iallreduce.c).  MPI orders collectives per communicator,
// and neither start waits for anything, so the two orders cannot deadlock.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, in = 1, out = 0, dsize = 0;
    MPI_Comm dup, newcomm;
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0) {
        MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
        MPI_Comm_idup(dup, &newcomm, &reqs[1]);
    } else {
        MPI_Comm_idup(dup, &newcomm, &reqs[1]);
        MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    }
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Comm_size(newcomm, &dsize);
    printf("rank %d: sum %d of %d, new size %d\n", rank, out, size, dsize);
    MPI_Comm_free(&newcomm);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
