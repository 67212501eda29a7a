// corpus: correct
// output-deterministic
// MPICH MTest-style loop: get_next_comm() splits MPI_COMM_WORLD by a
// rank-dependent colour; ranks outside get MPI_COMM_NULL.  On every member
// of comm 'comm == MPI_COMM_NULL' is false and the roots run to its size.
#include <mpi.h>
#include <stdio.h>

static int which = 0;

static int get_next_comm(MPI_Comm *comm, int min_size)
{
    int rank, color;
    MPI_Comm sub;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (which >= 3)
        return 0;
    if (which == 0) {
        MPI_Comm_dup(MPI_COMM_WORLD, comm);
    } else {
        color = (rank < min_size + which - 1) ? 1 : MPI_UNDEFINED;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &sub);
        if (rank < min_size + which - 1)
            *comm = sub;
        else
            *comm = MPI_COMM_NULL;
    }
    which++;
    return 1;
}

static void free_comm(MPI_Comm *comm) { MPI_Comm_free(comm); }

int main(int argc, char **argv)
{
    int rank, size, root, value, sum = 0, checked = 0;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while (get_next_comm(&comm, 1)) {
        if (comm == MPI_COMM_NULL)
            continue;
        MPI_Comm_size(comm, &size);
        for (root = 0; root < size; root++) {
            value = 1;
            MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, root, comm);
            checked++;
        }
        free_comm(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0 took part in %d reductions\n", checked);
    MPI_Finalize();
    return 0;
}
