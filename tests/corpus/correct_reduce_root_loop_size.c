// corpus: correct
// output-deterministic
// MPI_Reduce with the root running over a loop index bounded by
// MPI_Comm_size(comm), in a helper that returns at once on ranks without
// a communicator (MPI_COMM_NULL): every member of comm passes the same
// root in each iteration.
#include <mpi.h>
#include <stdio.h>

static int reduce_all_roots(MPI_Comm comm)
{
    int size, root, one = 1, sum = 0, got = 0;

    if (comm == MPI_COMM_NULL)
        return 0;
    MPI_Comm_size(comm, &size);
    for (root = 0; root < size; root++) {
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, root, comm);
        if (sum)
            got = sum;
    }
    return got;
}

int main(int argc, char **argv)
{
    int rank, got;
    MPI_Comm sub, part = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
    if (rank < 2)
        part = sub;
    got = reduce_all_roots(part);
    if (part != MPI_COMM_NULL)
        MPI_Comm_free(&part);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0 was a root and got %d\n", got);
    MPI_Finalize();
    return 0;
}
