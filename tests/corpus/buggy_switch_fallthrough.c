// corpus: buggy
// switch with fall-through: even ranks run both barriers, odd ranks only one.
// At run time the even ranks' second barrier meets the odd ranks' MPI_Finalize.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank % 2) {  // expect-note: switch (rank % 2)
    case 0:
        printf("rank %d: first phase\n", rank);
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
        /* fall through */
    case 1:
        MPI_Barrier(MPI_COMM_WORLD);  // may-warn; expect-dynamic: MPI_Barrier
        break;
    }
    MPI_Finalize();  // expect-dynamic: MPI_Finalize
    return 0;
}
