// corpus: buggy
// A vote by MPI_MAX decides nothing about a flag that may be negative: max(-1, 0) is 0,
// so every process falls through, and rank 1, whose flag is -1 (true), calls the
// barrier alone.  Only a 0/1 operand ('!p', a comparison) makes MAX a logical OR
// (mpicc_wrap/analysis/rankdep/consensus.py, OPERATIONS).
#include <mpi.h>
#include <stdio.h>

static int max_of(int value, MPI_Comm comm)
{
    int result;
    MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, comm);
    return result;
}

int main(int argc, char **argv)
{
    int rank, flag;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    flag = rank == 1 ? -1 : 0;
    if (max_of(flag, MPI_COMM_WORLD)) {
        MPI_Finalize();
        return 1;
    }
    if (flag)                                   // expect-note: flag
        MPI_Barrier(MPI_COMM_WORLD);            // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
