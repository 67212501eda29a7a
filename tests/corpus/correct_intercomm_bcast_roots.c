// corpus: correct
// output-deterministic
// nprocs: 2 4
// A broadcast over an intercommunicator: in the root's group the root passes MPI_ROOT
// and the others MPI_PROC_NULL, the other group passes the root's remote rank.  The
// root argument differs between processes by design (MPI-4.0 6.2.2).
#include <mpi.h>
#include <stdio.h>

static int bcast(int *value, int root, MPI_Comm comm)
{
    return MPI_Bcast(value, 1, MPI_INT, root, comm);
}

int main(int argc, char **argv)
{
    int rank, size, left, value = 0;
    MPI_Comm half, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = rank < size / 2;
    MPI_Comm_split(MPI_COMM_WORLD, left, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, left ? size / 2 : 0, 7, &inter);
    if (left) {
        int local;
        MPI_Comm_rank(half, &local);
        if (local == 0)
            value = 42;
        bcast(&value, local == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    } else {
        bcast(&value, 0, inter);
    }
    printf("rank %d value %d\n", rank, value);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
