// corpus: correct
// output-deterministic
// hdf5's parallel tests (testpar/t_cache_image.c), reduced: every test starts with
// pass = TRUE and runs its collective steps `if (pass)`; another test clears pass on
// rank 0 alone (a check of an argument only rank 0 looks at).  pass is a global, so it
// differs between processes somewhere in the file, but a test reads it right after
// storing TRUE itself, with no call in between that could change it: every process
// that runs the test sees TRUE there.
#include <mpi.h>
#include <stdio.h>

static int pass = 1;

static int report_strategy(int rank, int strategy)
{
    if (rank == 0 && strategy > 1)
        pass = 0; /* an unknown strategy: the test fails on rank 0 */
    return pass;
}

static int sum_test(int rank)
{
    int total = 0;

    pass = 1;
    if (pass)
        MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

int main(int argc, char **argv)
{
    int rank, total;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    report_strategy(rank, 1);
    total = sum_test(rank);
    if (rank == 0)
        printf("sum of ranks %d\n", total);
    MPI_Finalize();
    return 0;
}
