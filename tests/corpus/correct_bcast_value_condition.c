// corpus: correct
// output-deterministic
// Rank 0 decides, MPI_Bcast shares the decision, and every rank branches on
// the broadcast value.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, flag = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        flag = 1;
    MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (flag)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("flag %d\n", flag);
    MPI_Finalize();
    return 0;
}
