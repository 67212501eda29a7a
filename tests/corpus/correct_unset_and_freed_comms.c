// corpus: correct
// output-deterministic
// A global communicator that is set only when a split is asked for (never, here), and
// a copy of a communicator that is freed before the function returns: exit checks must
// not hand MPI either handle (MPICH aborts in MPI_Comm_test_inter on them).
#include <mpi.h>
#include <stdio.h>

MPI_Comm g_comm; /* set only when a split is asked for */

static void step(int use_split)
{
    if (use_split)
        MPI_Barrier(g_comm);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void phase(void)
{
    MPI_Comm c, keep;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    keep = c;
    MPI_Barrier(keep);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    step(argc > 5);
    phase();
    phase();
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
