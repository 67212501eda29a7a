// corpus: buggy
// The rank is kept in a global set by one function and tested in another.
#include <mpi.h>
#include <stdio.h>

static int g_rank;

static void init_globals(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
}

static void checkpoint(void)
{
    if (g_rank == 0)  // expect-note: g_rank == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    init_globals();
    checkpoint();  // may-warn
    printf("rank %d done\n", g_rank);
    MPI_Finalize();
    return 0;
}
