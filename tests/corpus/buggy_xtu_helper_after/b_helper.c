// Cross-TU helper compiled after its caller.
#include <mpi.h>

int reduce_all(int value)
{
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}
