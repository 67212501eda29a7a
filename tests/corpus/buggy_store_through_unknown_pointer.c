// corpus: buggy
// Like correct_params_not_poisoned_by_unknown_store.c, but a variable the pointer may
// reach decides a collective: rank 1 stores 1 into a01, so only rank 1 calls
// MPI_Barrier.  Memory behind the untracked pointer stays per-process.
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


int main(int argc, char **argv)
{
    int rank, got;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *slot(rank % 100) = rank;
    got = a01;
    if (a01 != 0)  // expect-note: a01
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d got %d\n", rank, got);
    MPI_Finalize();
    return 0;
}
