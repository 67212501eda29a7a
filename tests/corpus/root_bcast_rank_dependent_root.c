// corpus: buggy
// A rank-dependent ternary picks the MPI_Bcast root: the collective order is
// right (no ordering warning), but ranks disagree on the root, which is an
// error at run time.
#include <mpi.h>
#include <stdio.h>

#define N 65536

static int table[N];

int main(int argc, char **argv)
{
    int rank, root, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < N; i++)
        table[i] = rank + i;
    root = (rank == 0) ? 0 : 1;
    MPI_Bcast(table, N, MPI_INT, root, MPI_COMM_WORLD);  // expect-root-warning: MPI_Bcast; expect-dynamic: MPI_Bcast
    printf("rank %d first %d\n", rank, table[0]);
    MPI_Finalize();
    return 0;
}
