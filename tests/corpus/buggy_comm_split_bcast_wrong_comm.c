// corpus: buggy
// Odd ranks MPI_Bcast on the sub-communicator, even ranks MPI_Bcast on
// MPI_COMM_WORLD, then everybody synchronises on MPI_COMM_WORLD.  The odd
// ranks' MPI_Bcast on sub matches within sub (split by the same 'rank % 2'):
// the divergence is the even ranks' MPI_Bcast on MPI_COMM_WORLD.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
    value = rank;
    if (rank % 2)  // expect-note: rank % 2
        MPI_Bcast(&value, 1, MPI_INT, 0, sub);  // may-warn
    else
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);  // expect-warning: MPI_Bcast
    MPI_Barrier(MPI_COMM_WORLD);  // may-warn
    printf("rank %d value %d\n", rank, value);
    MPI_Comm_free(&sub);
    MPI_Finalize();
    return 0;
}
