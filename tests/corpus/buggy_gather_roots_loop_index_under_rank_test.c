// corpus: buggy
// nprocs: 3
// MPICH's test/mpi/coll/coll2.c with at most 2 participants: with 3 processes rank 2
// skips every gather on MPI_COMM_WORLD (a real hang).  The root, the loop index, is
// the same on every process that makes the call: one ordering warning, no root one.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, participants, i, x, buf[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    participants = size > 2 ? 2 : size;
    x = rank;
    if (rank < participants) {  // expect-note: rank < participants
        for (i = 0; i < participants; i++)
            MPI_Gather(&x, 1, MPI_INT, buf, 1, MPI_INT, i, MPI_COMM_WORLD);  // expect-warning: MPI_Gather
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
