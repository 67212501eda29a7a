// corpus: buggy
// nprocs: 3 4
// The even ranks share 'node' (split type MPI_COMM_TYPE_SHARED, the odd ones pass
// MPI_UNDEFINED), but the barrier on it runs only where 'rank % 4 == 0': a test the
// split type does not decide, so with 4 or more processes rank 2 never joins it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm node;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, (rank % 2 == 0) ? MPI_COMM_TYPE_SHARED : MPI_UNDEFINED,
                        0, MPI_INFO_NULL, &node);
    if (rank % 2 == 0) {
        if (rank % 4 == 0)  // expect-note: rank
            MPI_Barrier(node);  // expect-warning: MPI_Barrier
        MPI_Comm_free(&node);
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
