// corpus: buggy
// The twin of correct_error_flag_checked_after_each_call.c without the report: a
// function that returns nothing leaves early when the labels it received repeat, and
// nothing says it failed.  That is a path of a run without errors, taken by the
// processes whose neighbour sent a repeated label: they skip the reduction the others
// wait in.  Rank 1 repeats its label, so its neighbour leaves and the others hang.
#include <mpi.h>
#include <stdio.h>

static void exchange(int rank, int size, MPI_Comm comm, int *total)
{
    int mine[2], theirs[2], sum;

    mine[0] = 2 * rank;
    mine[1] = rank == 1 ? mine[0] : 2 * rank + 1;
    MPI_Sendrecv(mine, 2, MPI_INT, (rank + 1) % size, 3, theirs, 2, MPI_INT,
                 (rank + size - 1) % size, 3, comm, MPI_STATUS_IGNORE);
    if (theirs[1] == theirs[0]) {  // expect-note: theirs[1] == theirs[0]
        fprintf(stderr, "duplicate label %d\n", theirs[0]);
        { return; };
    }
    sum = theirs[0] + theirs[1];
    MPI_Allreduce(&sum, total, 1, MPI_INT, MPI_SUM, comm);  // expect-warning: MPI_Allreduce
}

int main(int argc, char **argv)
{
    int rank, size, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    exchange(rank, size, MPI_COMM_WORLD, &total);
    if (rank == 0)
        printf("labels summed: %d\n", total);
    MPI_Finalize();
    return 0;
}
