// Cross-TU helper, compiled BEFORE its caller (a_ sorts before b_): its
// summary is visible when b_main.c is compiled.
#include <mpi.h>

void sync_all(MPI_Comm comm)
{
    MPI_Barrier(comm);
}
