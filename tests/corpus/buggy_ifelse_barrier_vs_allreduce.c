// corpus: buggy
// Different collectives in the two arms: rank 0 calls MPI_Barrier while the
// others call MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, one = 1, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {  // expect-note: rank == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    } else {
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    }
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
