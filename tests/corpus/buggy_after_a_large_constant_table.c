// corpus: buggy
// A generated table of numbers (thousands of elements, like MPICH's baddims.h) before
// a rank-dependent barrier: the parser is given the table as one element, and the
// warning must still point at the barrier's line.  The program's own output (the
// table's sum) shows that the compiler still sees the whole table.
#include <mpi.h>
#include <stdio.h>

#define R10 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
#define R100 R10 R10 R10 R10 R10 R10 R10 R10 R10 R10
#define R1000 R100 R100 R100 R100 R100 R100 R100 R100 R100 R100

static const int table[] = { R1000 R1000 R1000 0 };

int main(int argc, char **argv)
{
    int rank;
    long sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
        sum += table[i];
    printf("rank %d sum %ld\n", rank, sum);
    if (rank == 0)  // expect-note: rank == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    MPI_Finalize();
    return 0;
}
