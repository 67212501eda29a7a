// corpus: correct
// output-deterministic
// goto-based cleanup taken on an MPI_Allreduce result, identical on all ranks.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, bad, anybad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bad = (rank > 1000);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (anybad)
        goto out;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("no errors\n");
out:
    MPI_Finalize();
    return 0;
}
