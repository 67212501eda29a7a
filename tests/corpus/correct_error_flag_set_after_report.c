// corpus: correct
// output-deterministic
// Scotch's dgraphBand2Coll (dgraph_band_grow.c), reduced: a function is given an
// array its caller chose, and when it is missing reports an error and sets a flag,
// then returns a failure when the flag is set.  Which array each process passes
// differs, so the test differs too, but its arm only runs on an error (an error arm
// that sets a flag): in a run without errors no process takes it, and every process
// reaches the reduction.  -Wmpi-error-divergence reports the path.
#include <mpi.h>
#include <stdio.h>

static void errorPrint(const char *msg)
{
    fprintf(stderr, "error: %s\n", msg);
}

static int grow(const int *frontier, int n, MPI_Comm comm, int *total)
{
    int flag = 0, i, sum = 0;

    if (frontier == NULL) {
        errorPrint("grow: no frontier");
        flag = 1;
    }
    if (flag != 0)
        return 1;
    for (i = 0; i < n; i++)
        sum += frontier[i];
    MPI_Allreduce(&sum, total, 1, MPI_INT, MPI_SUM, comm);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, total = 0;
    int odd[3] = { 1, 3, 5 }, even[3] = { 2, 4, 6 };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (grow(rank % 2 ? odd : even, 3, MPI_COMM_WORLD, &total) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("total %d\n", total);
    MPI_Finalize();
    return 0;
}
