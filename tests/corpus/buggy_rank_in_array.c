// corpus: buggy
// The rank is stored in an array element: ids[0] = rank, ids[1] = size.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int ids[2];
    int x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &ids[0]);
    MPI_Comm_size(MPI_COMM_WORLD, &ids[1]);
    if (ids[0] != 0)  // expect-note: ids[0] != 0
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    printf("rank %d of %d: %d\n", ids[0], ids[1], y);
    MPI_Finalize();
    return 0;
}
