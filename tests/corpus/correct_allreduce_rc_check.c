// corpus: correct
// output-deterministic
// `if (MPI_Allreduce(...) != MPI_SUCCESS)` executed by every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = 2;
    if (MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "allreduce failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("even sum %d\n", sum % 2 == 0);
    MPI_Finalize();
    return 0;
}
