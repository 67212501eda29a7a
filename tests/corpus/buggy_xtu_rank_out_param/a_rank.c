// Cross-TU helper, compiled BEFORE its caller: it writes the rank through its
// pointer parameter and returns nothing, so only the summary's rank_writes
// ("p0:1", analysis/rankdep/effects.py) tell b_main.c that *rank differs.
#include <mpi.h>

void my_rank(MPI_Comm comm, int *rank)
{
    MPI_Comm_rank(comm, rank);
}
