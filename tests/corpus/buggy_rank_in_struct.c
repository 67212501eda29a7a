// corpus: buggy
// The rank lives in a struct field reached through a pointer (H->mype).
#include <mpi.h>
#include <stdio.h>

struct hierarchy {
    int mype;
    int npes;
};

static void setup(struct hierarchy *H)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &H->mype);
    MPI_Comm_size(MPI_COMM_WORLD, &H->npes);
}

int main(int argc, char **argv)
{
    struct hierarchy h;
    struct hierarchy *H = &h;

    MPI_Init(&argc, &argv);
    setup(H);
    if (H->mype == 0)  // expect-note: H->mype == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("pe %d of %d\n", H->mype, H->npes);
    MPI_Finalize();
    return 0;
}
