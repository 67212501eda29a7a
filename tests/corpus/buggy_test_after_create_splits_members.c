// corpus: buggy
// nprocs: 3 4
// The even ranks create 'sub' together, but then only world rank 0 enters the
// barrier on it: the test after the create call splits the members of 'sub'.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, r, count = 0, evens[64];
    MPI_Group world, grp;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (r = 0; r < size && count < 64; r += 2)
        evens[count++] = r;
    MPI_Group_incl(world, count, evens, &grp);
    for (r = 0; r < 2; r++) {
        if (rank % 2 == 0) {
            MPI_Comm sub;

            MPI_Comm_create_group(MPI_COMM_WORLD, grp, r, &sub);
            if (rank == 0)  // expect-note: rank == 0
                MPI_Barrier(sub);  // expect-warning: MPI_Barrier
            MPI_Comm_free(&sub);  // may-warn
        }
    }
    printf("rank %d done\n", rank);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
