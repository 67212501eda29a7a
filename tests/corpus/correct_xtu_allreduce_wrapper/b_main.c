// corpus: correct
// output-deterministic
// The ranks agree on a root through an allreduce wrapper from another TU
// (a_wrapper.c): its output glb[] and its return code are uniform, so the early
// returns and the root of the MPI_Gather are the same on every rank
// (benchmarks/realcode-fp/08, Scotch's dorder_gather.c).
#include <mpi.h>
#include <stdio.h>

int allreduce_max(long *loc, long *glb, int n, MPI_Comm comm);

static int gather_at_chosen_root(MPI_Comm comm, int have_result)
{
    int rank, size, root;
    long loc[2], glb[2], one = 1, all[64];

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    loc[0] = have_result ? rank : 0;
    loc[1] = have_result;
    if (allreduce_max(loc, glb, 2, comm) != 0)
        return 1;
    if (glb[0] >= size || size > 64)
        return 1;
    root = (int)glb[0];
    MPI_Gather(&one, 1, MPI_LONG, all, 1, MPI_LONG, root, comm);
    if (rank == root)
        printf("root %d gathered %d values\n", root, size);
    return 0;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gather_at_chosen_root(MPI_COMM_WORLD, rank == 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
