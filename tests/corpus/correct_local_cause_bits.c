// corpus: correct
// output-deterministic
// hdf5's H5D__mpio_opt_possible, reduced: each process collects its reasons against
// collective I/O as bits of a local array, some from its own data (bit 0x10 of the
// first element, bit 0x1 of the second), one from the transfer mode every process
// shares (bit 0x1 of the first).  Only that bit decides whether they all skip the
// reduction, so every process calls MPI_Allreduce or none does
// (mpicc_wrap/analysis/rankdep/envbits.py).
#include <mpi.h>
#include <stdio.h>

enum cause { SET_INDEPENDENT = 0x01, NOT_SIMPLE = 0x10, RANK0_NOT_ALL = 0x01 };

static int opt_possible(int mode, int mine, MPI_Comm comm)
{
    unsigned local_cause[2] = {0, 0}, global_cause[2] = {0, 0};

    if (mode == 1)
        local_cause[0] |= SET_INDEPENDENT;
    if (mine > 2)
        local_cause[0] |= NOT_SIMPLE;
    if (mine % 2)
        local_cause[1] |= RANK0_NOT_ALL;
    if (local_cause[0] & SET_INDEPENDENT)
        global_cause[0] = local_cause[0];
    else
        MPI_Allreduce(local_cause, global_cause, 2, MPI_UNSIGNED, MPI_BOR, comm);
    return global_cause[0] == 0 && global_cause[1] == 0;
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
