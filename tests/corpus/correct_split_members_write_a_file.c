// corpus: correct
// output-deterministic
// hdf5's testpar/t_mpi.c (test_mpio_overlap_writes), reduced: the processes of one
// colour open a file on the communicator of their colour and write it, while the
// last process waits at the world's barrier.  The file's collectives are those of
// the colour's communicator, whose members all take the arm; the barrier of each
// arm matches the other's.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, colour;
    MPI_Comm comm;
    MPI_File fh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    colour = rank < size - 1 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &comm);
    if (colour == 0) {
        MPI_File_open(comm, "overlap.out",
                      MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                      MPI_INFO_NULL, &fh);
        MPI_File_write_at(fh, rank, "x", 1, MPI_BYTE, MPI_STATUS_IGNORE);
        MPI_File_close(&fh);
        MPI_Comm_free(&comm);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Comm_free(&comm);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("%d processes wrote\n", size - 1);
    MPI_Finalize();
    return 0;
}
