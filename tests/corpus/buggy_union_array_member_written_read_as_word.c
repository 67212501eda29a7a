// corpus: buggy
// A word that is also four bytes: the rank goes into the first byte through the
// array member and is read back through the integer member, so every rank but 0 sees
// a non-zero word and waits in the barrier while rank 0 finalises.  Missed before the
// fourteenth session: the elements of an array member were the location's pointees,
// one dereference away from the integer member they overlap.
#include <mpi.h>
#include <stdio.h>

union word { unsigned int w; unsigned char b[4]; };

struct state {
    int id;
    union word v;
};

int main(int argc, char **argv)
{
    int rank;
    struct state s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    s.id = 1;
    s.v.w = 0;
    s.v.b[0] = (unsigned char) (rank != 0);
    s.v.b[1] = (unsigned char) (rank != 0);
    if (s.v.w != 0)  // expect-note: s.v.w
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
