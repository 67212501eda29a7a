// corpus: buggy
// A while loop whose trip count is rank % 2 + 1 calls MPI_Allreduce each time.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rounds, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rounds = rank % 2 + 1;
    while (rounds > 0) {  // expect-note: rounds > 0
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        rounds--;
    }
    printf("rank %d y %d\n", rank, y);
    MPI_Finalize();
    return 0;
}
