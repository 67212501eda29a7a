// corpus: correct
// output-deterministic
// Every rank calls the cross-TU helper total(); only the printing is
// rank-dependent.
#include <mpi.h>
#include <stdio.h>

int total(int value);

int main(int argc, char **argv)
{
    int rank, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sum = total(rank + 1);
    if (rank == 0)
        printf("total %d\n", sum);
    MPI_Finalize();
    return 0;
}
