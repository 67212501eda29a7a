// corpus: buggy
// Even ranks call MPI_Reduce where odd ranks call MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 5, result = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0)  // expect-note: rank % 2 == 0
        MPI_Reduce(&value, &result, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);  // expect-warning: MPI_Reduce
    else
        MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d result %d\n", rank, result);
    MPI_Finalize();
    return 0;
}
