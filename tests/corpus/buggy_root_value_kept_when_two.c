// corpus: buggy
// nprocs: 2
// Like correct_root_value_kept_only_when_alone.c, but the format is broadcast only
// with three or more processes (if the size is above 2); with two, rank 1 keeps its format
// (-1), rank 0 returns on its 3, and only rank 1 stores a table entry and calls the
// MPI_Allreduce, whose communicator has two members.
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
    if (nprocs > 2)
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
    id = file_open(MPI_COMM_WORLD, "file.nc");
    if (id >= 0 && nfiles > 0)  // expect-note: nfiles > 0
        MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, files[id]);  // expect-warning: MPI_Allreduce
    printf("rank %d id %d total %d\n", rank, id, total);
    MPI_Finalize();
    return 0;
}
