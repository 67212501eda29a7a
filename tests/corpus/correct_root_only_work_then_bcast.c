// corpus: correct
// output-deterministic
// Only rank 0 reads the input (no collective inside), then broadcasts it.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank;
    char msg[32];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(msg, 0, sizeof msg);
    if (rank == 0)
        strcpy(msg, "configuration");
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("msg %s\n", msg);
    MPI_Finalize();
    return 0;
}
