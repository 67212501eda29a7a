// corpus: buggy
// Each rank names itself modulo 2 as the MPI_Reduce root: ranks disagree on
// the root of an otherwise correctly ordered collective.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = rank + 1;
    MPI_Reduce(&local, &total, 1, MPI_INT, MPI_SUM, rank % 2, MPI_COMM_WORLD);  // expect-root-warning: MPI_Reduce; expect-dynamic: MPI_Reduce
    printf("rank %d total %d\n", rank, total);
    MPI_Finalize();
    return 0;
}
