// Cross-TU helpers, compiled BEFORE their caller.  Only rank 0 creates hints, so in
// this file the handle differs between processes; obj_free() resets it to
// MPI_INFO_NULL on every process that calls it (the others already hold it).  Its
// summary must not list the handle as written per-process (rankdep/resets.py; the
// pattern of pnetcdf's ncmpio_free_NC).
#include <mpi.h>

typedef struct obj { MPI_Info hints; int n; } Obj;

void obj_hints(Obj *o)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        MPI_Info_create(&o->hints);
        MPI_Info_set(o->hints, "striping_factor", "4");
    }
}

void obj_free(Obj *o)
{
    if (o->hints != MPI_INFO_NULL)
        MPI_Info_free(&o->hints);
    o->n = 0;
}
