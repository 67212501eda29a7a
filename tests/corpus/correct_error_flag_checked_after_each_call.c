// corpus: correct
// output-deterministic
// hypre's Euclid (distributed_ls/Euclid/macros_dh.h), reduced: void functions report
// errors through setError_dh, which sets a global flag; CHECK_V_ERROR after each call
// and SET_V_ERROR (blocks of their own, followed by ';') report and return.  The test
// of the labels received from a neighbour differs between processes, but its arm only
// runs on invalid input (an error arm), so in a run without errors the flag stays
// clear everywhere and every process reaches the reduction.
#include <mpi.h>
#include <stdio.h>

static int errFlag_dh = 0;
static char msgBuf_dh[128];

static void setError_dh(const char *msg, const char *func, const char *file, int line)
{
    errFlag_dh = 1;
    fprintf(stderr, "[%s:%d] %s: %s\n", file, line, func, msg);
}

#define SET_V_ERROR(msg) { setError_dh(msg, __func__, __FILE__, __LINE__); return; }
#define CHECK_V_ERROR \
    if (errFlag_dh) { setError_dh("", __func__, __FILE__, __LINE__); return; }

static void check_labels(const int *labels, int n)
{
    for (int i = 1; i < n; i++)
        if (labels[i] == labels[i - 1]) {
            snprintf(msgBuf_dh, sizeof msgBuf_dh, "duplicate label %d", labels[i]);
            SET_V_ERROR(msgBuf_dh);
        }
}

static void exchange(int rank, int size, MPI_Comm comm, int *total)
{
    int mine[2] = {2 * rank, 2 * rank + 1}, theirs[2], sum;

    MPI_Sendrecv(mine, 2, MPI_INT, (rank + 1) % size, 3, theirs, 2, MPI_INT,
                 (rank + size - 1) % size, 3, comm, MPI_STATUS_IGNORE);
    check_labels(theirs, 2); CHECK_V_ERROR;
    sum = theirs[0] + theirs[1];
    MPI_Allreduce(&sum, total, 1, MPI_INT, MPI_SUM, comm);
}

int main(int argc, char **argv)
{
    int rank, size, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    exchange(rank, size, MPI_COMM_WORLD, &total);
    if (errFlag_dh)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("labels summed: %d\n", total);
    MPI_Finalize();
    return 0;
}
