// corpus: buggy
// The twin of correct_split_undefined_in_other_arm.c: the other arm's split passes
// the same colour instead of MPI_UNDEFINED, so 'newcomm' holds the ranks of both
// arms, and only the first arm enters the barrier on it.  The odd ranks go on to
// free 'newcomm' (a collective too) while the even ones wait in the barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm newcomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {             // expect-note: rank % 2 == 0
        MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &newcomm);
        MPI_Barrier(newcomm);        // expect-warning: MPI_Barrier
    } else {
        MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &newcomm);
    }
    MPI_Comm_free(&newcomm);         // may-warn
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
