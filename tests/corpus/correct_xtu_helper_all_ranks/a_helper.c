// Cross-TU helper running MPI_Allreduce, compiled before its caller.
#include <mpi.h>

int total(int value)
{
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}
