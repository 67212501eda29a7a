// corpus: correct
// output-deterministic
// hdf5's parallel tests (testpar/t_pread.c, t_cache_image.c), reduced: a test keeps
// pass = TRUE, and a step that fails on this process sets pass = FALSE and a
// failure_mssg; the next steps run only `if (pass)`.  Each check is on a value of its
// own process (here the size of a slice of the data), so the test differs between
// processes, but its arm only runs when the test failed (an arm that stores a failure
// message and clears a flag); in a run where no test fails every process reaches the
// collectives.  -Wmpi-error-divergence reports the paths.
#include <mpi.h>
#include <stdio.h>

static int pass = 1;
static const char *failure_mssg = NULL;

static int slice_size(int rank, int nprocs)
{
    return 1000 / nprocs + (rank < 1000 % nprocs);
}

static int check_slices(MPI_Comm comm, int *total)
{
    int rank, nprocs, mine;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    mine = slice_size(rank, nprocs);
    if (mine <= 0) {
        pass = 0;
        failure_mssg = "empty slice.\n";
    }
    else if (mine > 1000) {
        pass = 0;
        failure_mssg = "slice larger than the data.\n";
    }
    if (pass)
        MPI_Allreduce(&mine, total, 1, MPI_INT, MPI_SUM, comm);
    return pass;
}

int main(int argc, char **argv)
{
    int rank, total = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!check_slices(MPI_COMM_WORLD, &total))
        fprintf(stderr, "%d: %s", rank, failure_mssg);
    if (rank == 0)
        printf("rank 0: %d elements in all\n", total);
    MPI_Finalize();
    return 0;
}
