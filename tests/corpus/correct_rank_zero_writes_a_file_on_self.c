// corpus: correct
// output-deterministic
// Rank 0 alone writes a small file through MPI-IO, opened on MPI_COMM_SELF: the
// file's collectives (sync, close) involve the one process that opened it, so a
// test of the rank around them cannot make anybody wait.  They were judged against
// the world before, as if every process had to make them.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_File fh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        MPI_File_open(MPI_COMM_SELF, "rank0.out",
                      MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                      MPI_INFO_NULL, &fh);
        MPI_File_write(fh, &size, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_sync(fh);
        MPI_File_close(&fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("wrote the size, %d\n", size);
    MPI_Finalize();
    return 0;
}
