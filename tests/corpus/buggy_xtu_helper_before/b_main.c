// corpus: buggy
// Only rank 0 calls sync_all(), defined in another file that is compiled first.
#include <mpi.h>
#include <stdio.h>

void sync_all(MPI_Comm comm);

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)  // expect-note: rank == 0
        sync_all(MPI_COMM_WORLD);  // expect-warning: sync_all()
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
