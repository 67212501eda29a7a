// corpus: correct
// output-deterministic
// MPICH's comm/ic1.c: one handle variable holds one communicator after another.
// Each constructor's members are the ranks that made that call, all past the same
// tests on the way to it, so a per-process test before it cannot divide the members
// of the communicator it makes, even though other constructors write the same
// variable elsewhere in the function.  (A test after the split that matches its
// colour, cmsplit_type.c's pattern, needs the colour rule, which still holds only for
// a handle one call writes.)
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, one = 1;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Comm_free(&comm);
    } else {
        MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &comm);
        MPI_Comm_free(&comm);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);   /* every rank: the test above is behind */
    MPI_Comm_size(comm, &size);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    if (rank == 0)
        printf("even ranks %d\n", sum);
    MPI_Finalize();
    return 0;
}
