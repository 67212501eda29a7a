// corpus: correct
// output-deterministic
// Rank 0 checks the command line and dies through a helper of another TU
// (a_die.c) whose every path calls abort(): an error exit takes the whole job
// down, so it is no divergence, across files as within one
// (benchmarks/realcode-fp/10, p4est's SC_CHECK_ABORT).
#include <mpi.h>
#include <stdio.h>

void die(const char *msg) __attribute__((noreturn));

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && argc > 5)
        die("usage: prog [at most four arguments]");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("checked %d arguments\n", argc - 1);
    MPI_Finalize();
    return 0;
}
