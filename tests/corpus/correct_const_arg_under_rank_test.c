// corpus: correct
// output-deterministic
// Rank 0 alone checks the file with access() and strchr(), which take the path as
// const char *: they cannot write it, so the path stays the same on every process
// and so does the later test that guards the MPI_Bcast (pnetcdf's ncmpi_open calls
// open(path, ...) under if (rank == 0)).
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int open_file(MPI_Comm comm, char *path)
{
    int rank, found = 0;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        const char *base = strchr(path, ':');
        found = access(base ? base + 1 : path, F_OK) == 0;
    }
    if (path[0] != '\0')
        MPI_Bcast(&found, 1, MPI_INT, 0, comm);
    return found;
}

int main(int argc, char **argv)
{
    char path[64] = "file:/nonexistent/data.nc";
    int rank, found;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    found = open_file(MPI_COMM_WORLD, path);
    printf("rank %d found %d\n", rank, found);
    MPI_Finalize();
    return 0;
}
