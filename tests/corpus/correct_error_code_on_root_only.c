// corpus: correct
// Rank 0 prepares a value and returns an error code that only a failed MPI call or
// allocation sets (pnetcdf's header reader: `if (mpireturn != MPI_SUCCESS) err = ...`
// under `if (rank == 0)`); the caller returns early on an error.  In a run where
// nothing fails every rank reaches the broadcast, so no warning;
// -Wmpi-error-divergence reports the broadcast that a failure on rank 0 would skip.
// output-deterministic
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int prepare(int rank, int *value)
{
    int err = 0;

    if (rank == 0) {
        int size, rc = MPI_Type_size(MPI_INT, &size);
        int *scratch = malloc(16 * sizeof(int));

        if (rc != MPI_SUCCESS)
            err = 1;
        else if (scratch == NULL)
            err = 2;
        else
            *value = size * 10;
        free(scratch);
    }
    return err;
}

int main(int argc, char **argv)
{
    int rank, value = 0, err;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    err = prepare(rank, &value);
    if (err != 0) {
        fprintf(stderr, "rank %d: error %d\n", rank, err);
        MPI_Finalize();
        return err;
    }
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d value %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
