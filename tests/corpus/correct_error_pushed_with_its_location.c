// corpus: correct
// output-deterministic
// hdf5's error macros (src/H5Eprivate.h), reduced: HGOTO_ERROR pushes the error, with
// the __FILE__ and __LINE__ where it was raised, onto the library's error stack
// through H5E_printf_stack (no "error" in its name), sets the return value to FAIL
// and jumps to the function's cleanup.  H5Dmpio.c checks the rank it is given this
// way: `if ((mpi_rank = H5F_mpi_get_rank(f)) < 0) HGOTO_ERROR(...)`.  The test is on a
// per-process value, but its arm only runs after an error (an error arm: a call passed
// its own source location, then a jump); in a run without errors every process
// reaches the allreduce.  -Wmpi-error-divergence reports the path.
#include <mpi.h>
#include <stdio.h>

#define FAIL (-1)
static int err_stack_depth = 0;

static int E_printf_stack(void *estack, const char *file, const char *func,
                          unsigned line, const char *msg)
{
    err_stack_depth += estack == NULL;
    return fprintf(stderr, "%s:%u in %s(): %s\n", file, line, func, msg);
}

#define HERROR(msg) E_printf_stack(NULL, __FILE__, __func__, __LINE__, msg)
#define HGOTO_DONE(v) { ret_value = v; goto done; }
#define HGOTO_ERROR(msg) { HERROR(msg); HGOTO_DONE(FAIL) }

static int file_rank(MPI_Comm comm)
{
    int rank;
    return MPI_Comm_rank(comm, &rank) == MPI_SUCCESS ? rank : -1;
}

static int total_chunks(MPI_Comm comm, int local, int *total)
{
    int ret_value = 0;
    int mpi_rank;

    if ((mpi_rank = file_rank(comm)) < 0)
        HGOTO_ERROR("unable to obtain mpi rank")
    if (local < mpi_rank)
        HGOTO_ERROR("fewer chunks than the rank")
    MPI_Allreduce(&local, total, 1, MPI_INT, MPI_SUM, comm);
done:
    return ret_value;
}

int main(int argc, char **argv)
{
    int rank, total = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (total_chunks(MPI_COMM_WORLD, 2 * rank + 1, &total) < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("rank 0: %d chunks in all\n", total);
    MPI_Finalize();
    return 0;
}
