// corpus: correct
// output-deterministic
// A for loop with a constant trip count around MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, v, acc = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 5; i++) {
        v = rank + i;
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        acc += v;
    }
    if (rank == 0)
        printf("acc>0 %d\n", acc > 0);
    MPI_Finalize();
    return 0;
}
