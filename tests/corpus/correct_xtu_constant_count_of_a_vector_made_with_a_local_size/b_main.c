// corpus: correct
// output-deterministic
// Each rank owns rank + 1 entries; the number of components is the same everywhere,
// so every rank checks it alike and reduces once per component.
#include <mpi.h>
#include <stdio.h>

typedef struct vec { int size; int ncomp; double *data; } Vec;

Vec *vec_create(int size);
void vec_destroy(Vec *v);

int main(int argc, char **argv)
{
    Vec *v;
    double local, global;
    int me, c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    v = vec_create(me + 1);
    if (v->ncomp != 1) {
        vec_destroy(v);
        MPI_Finalize();
        return 0;
    }
    for (c = 0; c < v->ncomp; c++) {
        local = (double) v->size;
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (me == 0)
        printf("components %d\n", v->ncomp);
    vec_destroy(v);
    MPI_Finalize();
    return 0;
}
