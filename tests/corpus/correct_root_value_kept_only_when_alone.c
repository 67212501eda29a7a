// corpus: correct
// output-deterministic
// pnetcdf's ncmpi_open again: rank 0 computes the format, which is broadcast only
// when there are other processes (a size above 1); a process skips the broadcast
// only when it is alone, so after the join the format is the same everywhere and
// the early return on it, and the table entry stored after it, are too.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static MPI_Comm files[8];
static int nfiles;

static int file_open(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = -1;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0)
        format = (int)strlen(path) % 4;
    if (nprocs > 1)
        MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    if (format == 3)
        return -1;
    files[nfiles] = comm;
    return nfiles++;
}

int main(int argc, char **argv)
{
    int rank, id, total = 0, one = 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    id = file_open(MPI_COMM_WORLD, "data.nc");
    if (id >= 0 && nfiles > 0)
        MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, files[id]);
    printf("rank %d id %d total %d\n", rank, id, total);
    MPI_Finalize();
    return 0;
}
