// corpus: correct
// output-deterministic
// Ranks outside a sub-communicator hold MPI_COMM_NULL in a struct that is
// reached through a 'void *' field and a cast, as SUNDIALS writes it
// (benchmarks/realcode-fp/09): the test '!= MPI_COMM_NULL' is true on every
// member of the communicator, so the collective on it is not conditional there.
#include <mpi.h>
#include <stdio.h>

typedef struct { MPI_Comm comm; } content;
typedef struct { void *content; } vec;

static double dot(const vec *x, double lsum)
{
    double gsum = lsum;

    if (((content *)x->content)->comm != MPI_COMM_NULL)
        MPI_Allreduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, ((content *)x->content)->comm);
    return gsum;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm pair;
    content c;
    vec v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : 1, rank, &pair);
    c.comm = MPI_COMM_NULL;
    if (rank < 2)  // only ranks 0 and 1 use their pair communicator
        c.comm = pair;
    v.content = &c;
    printf("rank %d sum %g\n", rank, dot(&v, 1.0));
    MPI_Comm_free(&pair);
    MPI_Finalize();
    return 0;
}
