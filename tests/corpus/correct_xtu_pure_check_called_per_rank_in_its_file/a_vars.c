// Cross-TU helper, compiled BEFORE its caller.  check_len() is a pure function of
// the object it is given; this file also calls it on an object chosen by the rank
// (local_ok), so in this file's own solve its parameter is per-process.  Its
// summary must still say that called with the same object everywhere it returns
// the same value everywhere (solver._detached; pnetcdf's ncmpio_NC_check_vlen).
#include <mpi.h>

typedef struct var { long len; } Var;

Var vars[4] = {{1}, {20}, {3}, {40}};

int check_len(const Var *v, long max)
{
    return v->len <= max;
}

int local_ok(MPI_Comm comm)
{
    int me;
    MPI_Comm_rank(comm, &me);
    return check_len(&vars[me % 4], 10);
}
