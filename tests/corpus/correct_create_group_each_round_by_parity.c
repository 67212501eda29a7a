// corpus: correct
// output-deterministic
// In each round the ranks of one parity create a communicator with
// MPI_Comm_create_group and reduce on it (MPICH's test/mpi/comm/comm_group_rand.c
// draws the members at random).  Every member of 'sub' made the create call of this
// round, so the test that led them there had one outcome on all of them.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, round, r, count, one = 1, n, total = 0;
    int *members;
    MPI_Group world, grp;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    members = malloc(size * sizeof(int));
    for (round = 0; round < 3; round++) {
        count = 0;
        for (r = 0; r < size; r++)
            if ((r + round) % 2 == 0)
                members[count++] = r;
        MPI_Group_incl(world, count, members, &grp);
        if ((rank + round) % 2 == 0) {
            MPI_Comm sub;

            MPI_Comm_create_group(MPI_COMM_WORLD, grp, round, &sub);
            n = 0;
            MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, sub);
            MPI_Comm_free(&sub);
            total += n;
        }
        MPI_Group_free(&grp);
    }
    printf("rank %d: %d\n", rank, total);
    free(members);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
