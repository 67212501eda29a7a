// corpus: buggy
// nprocs: 3
// Both arms duplicate MPI_COMM_WORLD (the two calls match each other), so every rank
// is a member of 'c'; the barrier on it runs only where rank < 2.  The test around a
// constructor says nothing of the members when another call also writes the handle.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < 2) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);  // may-warn
        if (rank < 2)  // expect-note: rank < 2
            MPI_Barrier(c);  // expect-warning: MPI_Barrier
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);  // may-warn
    }
    MPI_Comm_free(&c);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
