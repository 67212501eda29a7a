// corpus: correct
// output-deterministic
// pnetcdf's error pattern (dispatchers/dimension.c): local checks jump to a label on
// a per-process error; at the label every process agrees on the error with an
// MPI_Allreduce and leaves on the agreed value.  The code after the label is
// reached by every process, so what it computes is not gated by the jumps.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int define(MPI_Comm comm, const char *name, int size)
{
    int err = 0, minE, rank, len;

    MPI_Comm_rank(comm, &rank);
    if (size < 0) {
        err = -1;
        goto err_check;
    }
    if (rank == 0 && strlen(name) > 64) {
        err = -2;
        goto err_check;
    }
err_check:
    MPI_Allreduce(&err, &minE, 1, MPI_INT, MPI_MIN, comm);
    if (minE != 0)
        return minE;
    len = (int)strlen(name);
    MPI_Bcast(&len, 1, MPI_INT, 0, comm);
    return len;
}

int main(int argc, char **argv)
{
    int rank, got;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    got = define(MPI_COMM_WORLD, "x_dimension", 4);
    printf("rank %d got %d\n", rank, got);
    MPI_Finalize();
    return 0;
}
