// corpus: buggy
// The two arms split the world with the same colour into two different handles:
// the splits match each other, so 'a' and 'b' name one communicator holding every
// rank.  'a' is written by one constructor call only, yet its members did not all
// make that call: the odd ranks made the other one.  Only the even ranks enter the
// barrier on 'a'; the odd ones go on to free 'b' (a collective too).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm a, b;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {             // expect-note: rank % 2 == 0
        MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &a);
        MPI_Barrier(a);              // expect-warning: MPI_Barrier
        MPI_Comm_free(&a);           // may-warn
    } else {
        MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &b);
        MPI_Comm_free(&b);           // may-warn
    }
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
