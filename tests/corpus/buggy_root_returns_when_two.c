// corpus: buggy
// nprocs: 2
// Like correct_root_returns_when_alone.c, but rank 0 returns when there are TWO
// processes: the other one then waits in the MPI_Bcast forever.  A test of the
// size is harmless only when it means "alone in the communicator".
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int open_file(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = 0;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {  // expect-note: rank == 0
        format = (int)strlen(path);
        if (nprocs == 2)
            return format;  // expect-exit-site
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);  // expect-warning: MPI_Bcast
    return format;
}

int main(int argc, char **argv)
{
    int rank, format;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    format = open_file(MPI_COMM_WORLD, "data.nc");  // may-warn
    printf("rank %d format %d\n", rank, format);
    MPI_Finalize();
    return 0;
}
