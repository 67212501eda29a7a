// corpus: correct
// output-deterministic
// fftw3's mpi/dft-rank-geq2.c, reduced: each process fills a kernel tensor at an
// index that depends on its rank (the field n of an iodim), while the distributed
// sizes (the field n of a ddim, another struct type) are the same on every process
// and decide the collectives.  C's effective-type rule keeps the two fields apart:
// no object is both an iodim and a ddim, so the per-process write cannot reach d.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; int is; } iodim;
typedef struct { int rnk; iodim dims[4]; } tensor;
typedef struct { int n; int b; } ddim;
typedef struct { int rnk; ddim dims[2]; } dtensor;

static tensor *local_tensor(const dtensor *d, int me)
{
    tensor *t = calloc(1, sizeof *t);
    t->rnk = 4;
    t->dims[me % 4].n = d->dims[0].n + me;
    return t;
}

static int plan(dtensor *d, int me)
{
    tensor *t = local_tensor(d, me);
    int sum = 0, local = t->dims[me % 4].n;

    if (d->dims[1].n > 4) /* the same on every process */
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(t);
    return sum;
}

int main(int argc, char **argv)
{
    int me, size, sum;
    dtensor d;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    d.rnk = 2;
    d.dims[0].n = 16;
    d.dims[1].n = 8;
    sum = plan(&d, me);
    if (me == 0)
        printf("sum %d\n", sum - 16 * size - size * (size - 1) / 2);
    MPI_Finalize();
    return 0;
}
