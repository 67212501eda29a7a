// corpus: correct
// output-deterministic
// Two nonblocking collectives started by every rank and completed with
// MPI_Waitall.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, a, b = 0, c = 0;
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    a = rank + 1;
    c = rank == 0 ? 5 : 0;
    MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(&c, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    if (rank == 0)
        printf("c %d b>0 %d\n", c, b > 0);
    MPI_Finalize();
    return 0;
}
