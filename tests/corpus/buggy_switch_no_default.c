// corpus: buggy
// switch without default: only ranks 1 and 2 reach the MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local = 1, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank) {  // expect-note: switch (rank)
    case 1:
    case 2:
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        break;
    }
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
