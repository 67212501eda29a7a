/* From sundials-6.4.1 src/nvector/manyvector/nvector_manyvector.c (21 warnings:
 * N_VDotProd :733, N_VMaxNorm, N_VWrmsNorm, ..., ManyVectorClone :2029): "MPI_Allreduce on
 * ((...) x->content)->comm may not be reached by all processes", note "depends on the
 * process rank (MPI_Comm_rank at nvector_manyvector.c:2064)", counter-example on
 * '...->comm != MPI_COMM_NULL'.  The constructor and the reductions call
 * SubvectorMPIRank() (MPI_Comm_rank, or -1 when that fails) and bail out on
 * 'if (rank < 0)'; the vector's struct is filled after such checks.
 * Correct: a rank is never negative, so 'rank < 0' (an MPI error check) is false on
 * every process; and 'comm != MPI_COMM_NULL' is uniform over the members of comm.
 * Pattern: an error check on the rank value ('rank < 0') makes the code after it
 * "rank-dependent", and the struct fields stored there (comm) with it. */
#include <mpi.h>
#include <stdlib.h>

typedef struct { MPI_Comm comm; long length; } content;

static int sub_rank(MPI_Comm comm)
{
    int rank;
    if (comm == MPI_COMM_NULL) return 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    return rank;
}

content *make(MPI_Comm comm, long n)
{
    content *v = malloc(sizeof *v);
    int rank = sub_rank(comm);
    long local;
    if (rank < 0) { free(v); return NULL; }         /* MPI failure only */
    local = (rank == 0) ? n : 0;                    /* root contributes the length */
    MPI_Comm_dup(comm, &v->comm);
    if (v->comm != MPI_COMM_NULL)
        MPI_Allreduce(&local, &v->length, 1, MPI_LONG, MPI_SUM, v->comm);
    return v;
}

double dot(const content *x, double lsum)
{
    double gsum = lsum;
    if (x->comm != MPI_COMM_NULL)
        MPI_Allreduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, x->comm);
    return gsum;
}

int main(int argc, char **argv)
{
    content *v;
    MPI_Init(&argc, &argv);
    v = make(MPI_COMM_WORLD, 10);
    if (v != NULL) { dot(v, 1.0); MPI_Comm_free(&v->comm); free(v); }
    MPI_Finalize();
    return 0;
}
