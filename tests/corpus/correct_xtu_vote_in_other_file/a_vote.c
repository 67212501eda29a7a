// The vote of FFTW's mpi/any-true.c in a TU of its own, compiled before its caller:
// b_main.c learns from the summary ('agreement') that its result is the logical OR
// of its first argument over the communicator.
#include <mpi.h>

int vote_any(int condition, MPI_Comm comm)
{
    int result;
    MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm);
    return result;
}
