/* From pnetcdf-1.12.3 src/dispatchers/file.c:582-611 (ncmpi_open).
 * Warned: "MPI_Bcast on comm may not be reached by all processes", note "the collective
 * sequence depends on this condition" at 'if (rank == 0)'.
 * Correct: rank 0 returns early only when nprocs == 1, i.e. when it is the only process
 * of comm, so no other process waits in the MPI_Bcast.  Pattern: a rank-dependent
 * early return guarded by 'size == 1' (the communicator has one member).
 * (Written while reducing a different file.c warning -- see SUMMARY.md, pattern P1b --
 * which this program does NOT reproduce: create_file() is not warned here.) */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void parse_hints(void)
{
    char *env = getenv("HINTS");
    if (env != NULL) {
        char *copy = strdup(env);
        strtok(copy, ";");                          /* writes into the private copy */
        free(copy);
    }
}

int create_file(MPI_Comm comm, const char *path)
{
    int cmode = 1;
    if (path == NULL || *path == '\0') return -1;   /* argument check, same on all ranks */
    MPI_Bcast(&cmode, 1, MPI_INT, 0, comm);
    parse_hints();
    return cmode;
}

int open_file(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {
        format = (int)strlen(path);
        if (nprocs == 1) return format;             /* rank 0 is alone */
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    parse_hints();
    return format;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    create_file(MPI_COMM_WORLD, "data.nc");
    open_file(MPI_COMM_WORLD, "data.nc");
    MPI_Finalize();
    return 0;
}
