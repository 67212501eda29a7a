// corpus: buggy
// The twin of correct_local_cause_bits.c where the bit that decides the reduction is
// also set from the process's own data: the processes with an odd rank skip
// MPI_Allreduce and the others wait in it.  A bit of one element set per process is
// still per-process when that very bit is read (mpicc_wrap/analysis/rankdep/envbits.py).
#include <mpi.h>
#include <stdio.h>

enum cause { SET_INDEPENDENT = 0x01, NOT_SIMPLE = 0x10 };

static int opt_possible(int mode, int mine, MPI_Comm comm)
{
    unsigned local_cause[2] = {0, 0}, global_cause[2] = {0, 0};

    if (mode == 1)
        local_cause[0] |= SET_INDEPENDENT;
    if (mine > 2)
        local_cause[0] |= NOT_SIMPLE;
    if (mine % 2)
        local_cause[0] |= SET_INDEPENDENT;
    if (local_cause[0] & SET_INDEPENDENT)       // expect-note: local_cause
        global_cause[0] = local_cause[0];
    else
        MPI_Allreduce(local_cause, global_cause, 2, MPI_UNSIGNED, MPI_BOR, comm); // expect-warning: MPI_Allreduce
    return global_cause[0] == 0;
}

int main(int argc, char **argv)
{
    int rank, ok;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ok = opt_possible(argc > 5, rank, MPI_COMM_WORLD);
    printf("rank %d possible %d\n", rank, ok);
    MPI_Finalize();
    return 0;
}
