// corpus: correct
// output-deterministic
// Each process stores its rank through a pointer picked from a table of 100
// addresses: too many targets to follow, so every memory location may hold a
// per-process value afterwards.  The parameters of bcast_from() are not memory:
// they are what its callers pass, a constant root and MPI_COMM_WORLD.
#include <mpi.h>
#include <stdio.h>

#define TEN(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9
static int TEN(a0), TEN(a1), TEN(a2), TEN(a3), TEN(a4), TEN(a5), TEN(a6), TEN(a7),
    TEN(a8), TEN(a9);
#define PICK(x) if (k-- == 0) p = &x;
#define PICK10(q) PICK(q##0) PICK(q##1) PICK(q##2) PICK(q##3) PICK(q##4) PICK(q##5) \
    PICK(q##6) PICK(q##7) PICK(q##8) PICK(q##9)

static int *slot(int k)
{
    int *p = &a00;
    PICK10(a0) PICK10(a1) PICK10(a2) PICK10(a3) PICK10(a4) PICK10(a5) PICK10(a6)
    PICK10(a7) PICK10(a8) PICK10(a9)
    return p;
}

static int bcast_from(int value, int root, MPI_Comm comm)
{
    MPI_Bcast(&value, 1, MPI_INT, root, comm);
    if (root == 0)
        MPI_Barrier(comm);
    return value;
}

int main(int argc, char **argv)
{
    int rank, got;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *slot(rank % 100) = rank;
    got = bcast_from(a00 + 7, 0, MPI_COMM_WORLD);
    printf("rank %d got %d\n", rank, got);
    MPI_Finalize();
    return 0;
}
