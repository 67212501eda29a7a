// Cross-TU library, compiled SECOND (hypre's par_csr_matrix.c): obj_destroy hands its
// object to mem_free.  In this file obj_stamp also destroys an object whose memory
// differs between processes (the rank is written into it), so obj_destroy's pointer
// may point to it.  Before, the call mem_free(o) counted as per-process through that
// memory for every object o may point to, obj_destroy's own among them: its summary
// said it writes per-process data into the object it is given ("p0:1"), and every
// caller's object became per-process as a whole.  The pointer is the same on every
// process, so the object written is; one that is the same everywhere stays so.
#include <mpi.h>
#include <stdlib.h>

typedef struct obj { int n; int spare; } Obj;

void mem_free(void *p);
void mem_copy(void *dst, const void *src, size_t n);

Obj *obj_new(int n)
{
    Obj *o = (Obj *) malloc(sizeof *o);

    o->n = n;
    o->spare = 0;
    return o;
}

void obj_destroy(Obj *o)
{
    if (o)
        mem_free(o);
}

void obj_copy(Obj *dst, const Obj *src)
{
    mem_copy(dst, src, sizeof *dst);
}

int obj_stamp(MPI_Comm comm)
{
    Obj *t = (Obj *) malloc(sizeof *t);
    int r;

    MPI_Comm_rank(comm, (int *) t);  // the whole object differs between processes
    r = t->n;
    obj_destroy(t);
    return r;
}
