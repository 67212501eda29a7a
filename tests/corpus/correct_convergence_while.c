// corpus: correct
// output-deterministic
// A solver loop ends on a global residual from MPI_Allreduce: same trip count
// everywhere although the local residuals differ.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, iters = 0;
    double local = 1.0, global = 1.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = 1.0 / (rank + 1);
    while (global > 1e-3) {
        local *= 0.5;
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        iters++;
    }
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
