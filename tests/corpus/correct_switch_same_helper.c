// corpus: correct
// output-deterministic
// Every case of a switch on the rank calls the same collective helper.
#include <mpi.h>
#include <stdio.h>

static int sum_all(int v)
{
    int s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

int main(int argc, char **argv)
{
    int rank, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank % 3) {
    case 0:
        s = sum_all(1);
        break;
    case 1:
        s = sum_all(2);
        break;
    default:
        s = sum_all(3);
        break;
    }
    if (rank == 0)
        printf("s>0 %d\n", s > 0);
    MPI_Finalize();
    return 0;
}
