// corpus: buggy
// A message header is a union of an integer code and a float weight.  The rank is
// stored through the integer member and read back through the float member (type
// punning, which C allows through a union): every rank but 0 sees a non-zero weight
// and waits in the barrier, rank 0 finalises.  The members of a union overlap, so a
// write to one must reach a read of another.
#include <mpi.h>
#include <stdio.h>

union header { int code; float weight; };

int main(int argc, char **argv)
{
    int rank;
    union header h;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    h.weight = 0.0f;
    h.code = rank;
    if (h.weight != 0.0f)  // expect-note: h.weight
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
