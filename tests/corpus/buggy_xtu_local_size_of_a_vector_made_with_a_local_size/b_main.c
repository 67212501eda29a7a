// corpus: buggy
// Each rank owns rank + 1 entries and reduces once per entry it owns: the ranks
// call MPI_Allreduce different numbers of times.  The size the library stores is
// the argument, so it stays per-process through the summary (arg_writes).
#include <mpi.h>
#include <stdio.h>

typedef struct vec { int size; int ncomp; double *data; } Vec;

Vec *vec_create(int size);
void vec_destroy(Vec *v);

int main(int argc, char **argv)
{
    Vec *v;
    double local, global;
    int me, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    v = vec_create(me + 1);
    for (i = 0; i < v->size; i++) {  // expect-note: i < v->size
        local = (double) i;
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    }
    printf("rank %d done\n", me);
    vec_destroy(v);
    MPI_Finalize();
    return 0;
}
