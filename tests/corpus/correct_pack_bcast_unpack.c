// corpus: correct
// output-deterministic
// pnetcdf's ncmpi_open packs rank 0's format and mode into a small array, broadcasts
// the whole array and unpacks it: after the MPI_Bcast every element is rank 0's on
// all processes, so the test on the unpacked format is the same everywhere (the
// function's error path uses goto, as pnetcdf's does).
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int open_file(MPI_Comm comm, const char *path, int mode)
{
    int rank, format = -1, msg[2], err = 0;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        format = (int)strlen(path) % 5;
    msg[0] = format;
    msg[1] = mode;
    MPI_Bcast(msg, 2, MPI_INT, 0, comm);
    format = msg[0];
    mode = msg[1];
    if (format == 4) {
        err = -1;
        goto fail;
    }
    MPI_Allreduce(MPI_IN_PLACE, &mode, 1, MPI_INT, MPI_MAX, comm);
    return format + mode;
fail:
    return err;
}

int main(int argc, char **argv)
{
    int rank, r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    r = open_file(MPI_COMM_WORLD, "data.nc", rank);
    printf("rank %d result %d\n", rank, r);
    MPI_Finalize();
    return 0;
}
