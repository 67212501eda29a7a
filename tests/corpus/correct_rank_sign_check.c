// corpus: correct
// output-deterministic
// sub_rank() returns the rank, or -1 when MPI_Comm_rank fails; 'rank < 0' is
// decided alike on every process (SUNDIALS, benchmarks/realcode-fp/06), so the
// struct stored after it and the reductions on it are not per-process.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { MPI_Comm comm; long length; } content;

static int sub_rank(MPI_Comm comm)
{
    int rank;
    if (comm == MPI_COMM_NULL) return 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    return rank;
}

static content *make(MPI_Comm comm, long n)
{
    content *v;
    long local;
    int rank = sub_rank(comm);
    if (rank < 0)
        return NULL;
    v = malloc(sizeof *v);
    if (v == NULL) MPI_Abort(comm, 1);
    local = rank == 0 ? n : 0;
    MPI_Comm_dup(comm, &v->comm);
    MPI_Allreduce(&local, &v->length, 1, MPI_LONG, MPI_SUM, v->comm);
    return v;
}

static double dot(const content *x, double lsum)
{
    double gsum = lsum;
    if (x->comm != MPI_COMM_NULL)
        MPI_Allreduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, x->comm);
    return gsum;
}

int main(int argc, char **argv)
{
    int rank;
    content *v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v = make(MPI_COMM_WORLD, 10);
    if (v != NULL) {
        double d = dot(v, 1.0);
        if (rank == 0)
            printf("length %ld dot %g\n", v->length, d > 0.0 ? 1.0 : 0.0);
        MPI_Comm_free(&v->comm);
        free(v);
    }
    MPI_Finalize();
    return 0;
}
