// corpus: correct
// output-deterministic
// The rank kept in a struct field (H->mype) only selects data, never control.
#include <mpi.h>
#include <stdio.h>

struct mesh {
    int mype;
    double value;
};

int main(int argc, char **argv)
{
    struct mesh m;
    struct mesh *H = &m;
    double sum = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &H->mype);
    H->value = 1.5 * H->mype;
    MPI_Allreduce(&H->value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (H->mype == 0)
        printf("sum>=0 %d\n", sum >= 0.0);
    MPI_Finalize();
    return 0;
}
