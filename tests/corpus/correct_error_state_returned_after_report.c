// corpus: correct
// output-deterministic
// hypre's MGR (parcsr_ls/par_mgr.c, hypre_MGRBlockRelaxSetup), reduced: a function
// validates its local input, reports a bad size through hypre_error_w_msg (which sets
// the global error state hypre_error_flag) and returns that state.  The local sizes
// differ between processes, so the test differs too, but its arm only runs on
// invalid input (an error arm that returns the error state its reporter keeps); in a
// run without errors every process reaches the scan.  -Wmpi-error-divergence reports
// the path.
#include <mpi.h>
#include <stdio.h>

static int hypre__global_error = 0;

static void hypre_error_handler(const char *file, int line, int code, const char *msg)
{
    hypre__global_error |= code;
    fprintf(stderr, "%s:%d: %s\n", file, line, msg);
}

#define hypre_error_flag hypre__global_error
#define hypre_error_w_msg(c, m) hypre_error_handler(__FILE__, __LINE__, c, m)

static int block_setup(int nrows, int blk_size, MPI_Comm comm, int *first)
{
    int last;

    if (nrows > 0 && nrows < blk_size) {
        hypre_error_w_msg(1, "Input matrix is smaller than block size.");
        return hypre_error_flag;
    }
    MPI_Scan(&nrows, &last, 1, MPI_INT, MPI_SUM, comm);
    *first = last - nrows;
    return 0;
}

int main(int argc, char **argv)
{
    int rank, first = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (block_setup(4 * (rank + 1), 2, MPI_COMM_WORLD, &first) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("rank 0: first row %d\n", first);
    MPI_Finalize();
    return 0;
}
