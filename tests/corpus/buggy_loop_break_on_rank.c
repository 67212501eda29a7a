// corpus: buggy
// A loop over three phases breaks out after the phase equal to the rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, phase;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (phase = 0; phase < 3; phase++) {
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
        if (phase == rank)  // expect-note: phase == rank
            break;
    }
    printf("rank %d stopped at phase %d\n", rank, phase);
    MPI_Finalize();
    return 0;
}
