// corpus: correct
// output-deterministic
// A switch on the rank only chooses a value; the collective comes after it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, role, maxrole = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    switch (rank) {
    case 0:
        role = 10;
        break;
    case 1:
        role = 20;
        /* fall through */
    default:
        role = 30;
        break;
    }
    MPI_Allreduce(&role, &maxrole, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("max role %d\n", maxrole);
    MPI_Finalize();
    return 0;
}
