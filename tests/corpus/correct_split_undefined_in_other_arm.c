// corpus: correct
// output-deterministic
// MPICH's comm/ctxsplit.c: the ranks that pass a per-process test split the world
// with one colour and use the new communicator; the others take the other arm,
// whose split passes MPI_UNDEFINED and gets MPI_COMM_NULL.  The two splits match
// (both collective on MPI_COMM_WORLD), and the members of 'newcomm' are exactly the
// ranks of the first arm, all past the same test: the barrier and the free on
// 'newcomm' are reached by every member.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Comm newcomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int round = 0; round < 3; round++) {
        if ((rank + round) % 2 == 0) {
            MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &newcomm);
            MPI_Comm_size(newcomm, &size);
            MPI_Barrier(newcomm);
            MPI_Comm_free(&newcomm);
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &newcomm);
            if (newcomm != MPI_COMM_NULL)
                errs++;
        }
    }
    if (rank == 0)
        printf("errors %d\n", errs);
    MPI_Finalize();
    return 0;
}
