// corpus: correct
// output-deterministic
// MPI_Comm_create_group over the ranks 0..size/2, called by exactly those ranks
// (MPICH's test/mpi/comm/comm_group_half.c): every member of 'half' made the call
// under 'rank <= size / 2', so the barrier under the same test involves all of them.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, hsize = 0, range[1][3];
    MPI_Group full, halfgroup;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &full);
    range[0][0] = 0;
    range[0][1] = size / 2;
    range[0][2] = 1;
    MPI_Group_range_incl(full, 1, range, &halfgroup);
    if (rank <= size / 2) {
        MPI_Comm_create_group(MPI_COMM_WORLD, halfgroup, 0, &half);
        MPI_Comm_size(half, &hsize);
        MPI_Barrier(half);
        MPI_Comm_free(&half);
    }
    printf("rank %d: half of %d\n", rank, hsize);
    MPI_Group_free(&halfgroup);
    MPI_Group_free(&full);
    MPI_Finalize();
    return 0;
}
