// corpus: buggy
// nprocs: 2 4
// The same wrapper serves an intercommunicator broadcast (MPI_ROOT / MPI_PROC_NULL,
// legitimately different) and a broadcast on MPI_COMM_WORLD whose root depends on the
// rank: not warned (the wrapper's root is an intercommunicator's), but still checked
// at run time, which stops the second call.
#include <mpi.h>
#include <stdio.h>

#define N 65536

static int table[N];

static int bcast(int *data, int n, int root, MPI_Comm comm)
{
    return MPI_Bcast(data, n, MPI_INT, root, comm);  // expect-dynamic: MPI_Bcast
}

int main(int argc, char **argv)
{
    int rank, size, left, value = 0;
    MPI_Comm half, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = rank < size / 2;
    MPI_Comm_split(MPI_COMM_WORLD, left, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, left ? size / 2 : 0, 7, &inter);
    bcast(&value, 1, left ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
    bcast(table, N, rank % 2, MPI_COMM_WORLD);
    printf("rank %d value %d %d\n", rank, value, table[0]);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
