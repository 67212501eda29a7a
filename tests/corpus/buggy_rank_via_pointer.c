// corpus: buggy
// The rank is read back through a pointer (int *p = &rank).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    int *p = &rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (*p == 0)  // expect-note: *p == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
