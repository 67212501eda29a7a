// corpus: buggy
// Like buggy_split_into_two_handles_in_opposite_arms.c, but the odd ranks' split is
// in a helper: it still matches the even ranks' split, so 'sub' holds every rank,
// and only the even ones enter the barrier on it.
#include <mpi.h>
#include <stdio.h>

static void make_other(MPI_Comm *out)
{
    MPI_Comm_split(MPI_COMM_WORLD, 7, 0, out);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm sub, other;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {             // expect-note: rank % 2 == 0
        MPI_Comm_split(MPI_COMM_WORLD, 7, 0, &sub);
        MPI_Barrier(sub);            // expect-warning: MPI_Barrier
        MPI_Comm_free(&sub);         // may-warn
    } else {
        make_other(&other);
        MPI_Comm_free(&other);       // may-warn
    }
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
