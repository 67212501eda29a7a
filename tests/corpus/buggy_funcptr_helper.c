// corpus: buggy
// A function pointer to a collective helper is called only on rank 0.
#include <mpi.h>
#include <stdio.h>

typedef void (*step_fn)(MPI_Comm);

static void do_barrier(MPI_Comm comm)
{
    MPI_Barrier(comm);
}

int main(int argc, char **argv)
{
    int rank;
    step_fn step = do_barrier;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)  // expect-note: rank == 0
        step(MPI_COMM_WORLD);  // expect-warning: step()|do_barrier()|pointer|MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
