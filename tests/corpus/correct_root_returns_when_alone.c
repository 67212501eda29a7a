// corpus: correct
// output-deterministic
// Rank 0 reads the header and returns early only when it is alone in the
// communicator (pnetcdf's ncmpi_open, benchmarks/realcode-fp/01): with two or
// more processes nobody returns, so every member reaches the MPI_Bcast.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int open_file(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = 0;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {
        format = (int)strlen(path);
        if (nprocs == 1)
            return format;
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    return format;
}

int main(int argc, char **argv)
{
    int rank, format;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    format = open_file(MPI_COMM_WORLD, "data.nc");
    printf("rank %d format %d\n", rank, format);
    MPI_Finalize();
    return 0;
}
