/* From pnetcdf-1.12.3 src/dispatchers/file.c:582-611 (ncmpi_open).
 * Warned: "MPI_Bcast on comm may not be reached by all processes", note "the collective
 * sequence depends on this condition" at 'if (rank == 0)'.
 * Correct: rank 0 returns early only when nprocs == 1, i.e. when it is the only process
 * of comm, so no other process waits in the MPI_Bcast.  Pattern: a rank-dependent
 * early return guarded by 'size == 1' (the communicator has one member).  The same
 * return is also what poisons pnetcdf's global file table (see 03). */
#include <mpi.h>
#include <string.h>

int open_file(MPI_Comm comm, const char *path)
{
    int rank, nprocs, format = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {
        format = (int)strlen(path);                 /* root reads the header */
        if (nprocs == 1) return format;             /* rank 0 is alone */
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    return format;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    open_file(MPI_COMM_WORLD, "data.nc");
    MPI_Finalize();
    return 0;
}
