// corpus: correct
// output-deterministic
// pnetcdf's ncmpi_open (benchmarks/realcode-fp/03): rank 0 may return early, but
// only when it is alone in the communicator, so every process that goes on stores
// the same entry in the global table, and the guard of the later collective,
// which reads the table, has one value on all processes.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static MPI_Comm files[8];
static int nfiles;

static int file_open(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = 0;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {
        format = (int)strlen(path);
        if (nprocs == 1 && format > 100)
            return -1;
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    files[nfiles] = comm;
    return nfiles++;
}

static int def_dim(int id, int len)
{
    int total = 0;

    if (id < 0 || id >= nfiles)
        return -1;
    MPI_Allreduce(&len, &total, 1, MPI_INT, MPI_SUM, files[id]);
    return total;
}

int main(int argc, char **argv)
{
    int rank, id;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    id = file_open(MPI_COMM_WORLD, "data.nc");
    printf("rank %d total %d\n", rank, def_dim(id, 10));
    MPI_Finalize();
    return 0;
}
