// corpus: correct
// output-deterministic
// MPI_Alltoall and MPI_Allgather with rank-dependent data.
#include <mpi.h>
#include <stdio.h>

#define MAXP 16

int main(int argc, char **argv)
{
    int rank, size, i, out[MAXP], in[MAXP], ranks[MAXP];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < MAXP; i++)
        out[i] = rank * 100 + i;
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&rank, 1, MPI_INT, ranks, 1, MPI_INT, MPI_COMM_WORLD);
    if (rank == 0)
        printf("in[0] %d ranks[0] %d\n", in[0], ranks[0]);
    MPI_Finalize();
    return 0;
}
