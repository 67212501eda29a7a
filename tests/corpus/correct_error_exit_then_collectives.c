// corpus: correct
// output-deterministic
// A capacity check that no rank fails in this run: a rank that overflowed would exit
// with a failure status, and the launcher would end the whole job (MPICH and Open MPI
// alike), so the collectives after it are reached by every rank or by none.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, num_dots, max_num_dots = 1000, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    num_dots = 10 * rank;
    if (num_dots + 1 > max_num_dots) {
        printf("%d ERROR: need more dots\n", rank);
        exit(-1);
    }
    MPI_Allreduce(&num_dots, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (num_dots < 0) {
        fprintf(stderr, "%d: negative count\n", rank);
        exit(EXIT_FAILURE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("total %d\n", total > 0);
    MPI_Finalize();
    return 0;
}
