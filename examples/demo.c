/* demo: a collective that not every rank reaches.
 *
 * Ranks with an odd number skip the MPI_Allreduce inside the `if`, so under plain
 * mpicc the even ranks wait forever in it (or the program deadlocks at the next
 * collective).  mpicc-wrap warns at compile time and, at run time, aborts with a
 * DYNAMIC-CHECK report before any rank blocks.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    double mine, total = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1.0;

    if (rank % 2 == 0)  /* BUG: only even ranks take part */
        MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("total over %d ranks: %.1f\n", size, total);
    MPI_Finalize();
    return 0;
}
