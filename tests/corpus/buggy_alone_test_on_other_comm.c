// corpus: buggy
// nprocs: 2 3
// Rank 0 returns when it is alone in a DIFFERENT communicator (its own
// MPI_COMM_SELF-like split), then the others wait in a broadcast on
// MPI_COMM_WORLD: being alone in one communicator says nothing about another.
#include <mpi.h>
#include <stdio.h>

static int share(MPI_Comm world, MPI_Comm mine)
{
    int rank, mysize, value = 0;

    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(mine, &mysize);
    if (rank == 0) {  // expect-note: rank == 0
        value = 42;
        if (mysize == 1)
            return value;  // expect-exit-site
    }
    MPI_Bcast(&value, 1, MPI_INT, 0, world);  // expect-warning: MPI_Bcast
    return value;
}

int main(int argc, char **argv)
{
    int rank, value;
    MPI_Comm mine;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, rank, &mine);
    value = share(MPI_COMM_WORLD, mine);  // may-warn
    printf("rank %d value %d\n", rank, value);
    MPI_Comm_free(&mine);
    MPI_Finalize();
    return 0;
}
