// corpus: correct
// output-deterministic
// hdf5's getenv_all (test/h5test.c), reduced: rank 0 reads a setting and sends its
// length, the others receive it, each side in its own arm of the rank test.  The two
// broadcasts are one collective, so every process leaves the test with rank 0's
// length, and the barrier under it is made by all or by none.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, len;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *setting = argc > 1 ? argv[1] : "default";
        len = (int)strlen(setting);
        MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (len > 3)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("length %d\n", len);
    MPI_Finalize();
    return 0;
}
