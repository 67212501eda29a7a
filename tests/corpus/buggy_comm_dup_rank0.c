// corpus: buggy
// Only rank 0 calls the collective constructor MPI_Comm_dup.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm copy = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {  // expect-note: rank == 0
        MPI_Comm_dup(MPI_COMM_WORLD, &copy);  // expect-warning: MPI_Comm_dup
        MPI_Comm_free(&copy);  // may-warn
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
