// corpus: buggy
// The field mode of a settings object is written through a cast of a void pointer,
// with a value that depends on the rank, then read through the object's own name.
// Fields are told apart by struct type (the effective-type rule), and both accesses
// are of the type settings, so the write must reach the read: odd ranks wait in the
// barrier, even ranks finalise.
#include <mpi.h>
#include <stdio.h>

typedef struct { int mode; int pad; } settings;
typedef struct { int mode; } other;

static void configure(void *raw, int rank)
{
    ((settings *) raw)->mode = rank % 2;
}

int main(int argc, char **argv)
{
    int rank;
    settings s = { 0, 0 };
    other o = { 1 };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    configure(&s, rank);
    if (o.mode)
        printf("rank %d configured\n", rank);
    if (s.mode)  // expect-note: s.mode
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    MPI_Finalize();
    return 0;
}
