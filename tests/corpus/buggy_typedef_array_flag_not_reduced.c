// corpus: buggy
// The twin of correct_typedef_array_reduced_after_local_copy.c: the error flag is
// tested before the reduction, in the typedef'd local buffer that still holds each
// rank's own value.  Rank 1 leaves; the others wait in the reduction.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

typedef int64_t Gnum;
typedef Gnum Flag;

static int settle(MPI_Comm comm, Gnum mine)
{
    int rank;
    Flag reduloctab[3];
    Flag reduglbtab[3];

    MPI_Comm_rank(comm, &rank);
    reduloctab[0] = rank;
    reduloctab[1] = mine;
    reduloctab[2] = rank == 1;       /* an error on rank 1 only */
    reduglbtab[2] = reduloctab[2];
    if (reduglbtab[2] != 0)          // expect-note: reduglbtab[2] != 0
        return -1;
    MPI_Allreduce(reduloctab, reduglbtab, 3, MPI_INT64_T, MPI_MAX, comm); // expect-warning: MPI_Allreduce
    return (int) reduglbtab[1];
}

int main(int argc, char **argv)
{
    int rank, got;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    got = settle(MPI_COMM_WORLD, 7);
    if (rank == 0)
        printf("settled %d\n", got);
    MPI_Finalize();
    return 0;
}
