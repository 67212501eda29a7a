// corpus: correct
// output-deterministic
// MPI_Comm_split_type with split type 'rank % 2 == 0 ? MPI_COMM_TYPE_SHARED :
// MPI_UNDEFINED' (MPICH's test/mpi/comm/cmsplit_type.c): every member of 'node'
// passed MPI_COMM_TYPE_SHARED, so the test 'rank % 2 == 0' holds on all of them and
// the collectives on 'node' under it involve every member.  The odd ranks hold
// MPI_COMM_NULL.  (Open MPI's MPI_COMM_TYPE_SHARED is an enumerator, MPICH's a literal.)
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, members = 0, one = 1, errs = 0, total = 0;
    MPI_Comm node;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, (rank % 2 == 0) ? MPI_COMM_TYPE_SHARED : MPI_UNDEFINED,
                        0, MPI_INFO_NULL, &node);
    if ((rank % 2) && node != MPI_COMM_NULL)
        errs++;
    if (rank % 2 == 0) {
        MPI_Allreduce(&one, &members, 1, MPI_INT, MPI_SUM, node);
        MPI_Comm_free(&node);
    }
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    printf("rank %d: %s\n", rank, members > 0 || rank % 2 ? "ok" : "no members");
    MPI_Finalize();
    return 0;
}
