// corpus: correct
// output-deterministic
// The root sets the count, broadcasts it and loops over it; the others loop over the
// broadcast copy.  Inside the root's arm 'n' is the value every process that runs
// the arm computed, so the two loops are the same sequence of broadcasts (003 §3:
// the test gates 'n' where the arms join, not inside them).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, n = 0, i, v = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        n = 3;
        MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (i = 0; i < n; i++) {
            v += i;
            MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
    } else {
        MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (i = 0; i < n; i++)
            MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    printf("rank %d: n %d, v %d\n", rank, n, v);
    MPI_Finalize();
    return 0;
}
