// corpus: buggy
// nprocs: 3
// With more than 3 processes 'c' is split by 'rank < 2' and the barrier under that
// test would be correct; with 3 or fewer it is a duplicate of MPI_COMM_WORLD, rank 2
// skips the barrier and the others wait for it: the colour tells nothing about the
// members of a handle that another constructor may have written.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 3)
        MPI_Comm_split(MPI_COMM_WORLD, rank < 2, rank, &c);
    else
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (rank < 2)  // expect-note: rank < 2
        MPI_Barrier(c);  // expect-warning: MPI_Barrier
    MPI_Comm_free(&c);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
