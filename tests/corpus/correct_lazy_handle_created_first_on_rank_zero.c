// corpus: correct
// output-deterministic
// hypre's hypre_handle() and HDF5's FUNC_ENTER: a handle and a package created lazily
// by whichever call first needs them. Rank 0 creates both while it reads the input,
// the others at the first test below; after each 'if (!x)' every process holds what
// the same function made, so every process takes the same branches.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int memory_location; int nvectors; } handle_t;
static handle_t *the_handle;
static int pkg_init, pkg_terminating, pkg_nfilters;

static handle_t *handle_create(void)
{
    handle_t *h = malloc(sizeof *h);
    h->memory_location = 1;
    h->nvectors = 2;
    return h;
}

static handle_t *get_handle(void)
{
    if (!the_handle)
        the_handle = handle_create();
    return the_handle;
}

static int init_package(void) { pkg_nfilters = 3; return 0; }

static int nfilters(void)
{
    int ret = -1;
    if (!pkg_init && !pkg_terminating) {
        pkg_init = 1;
        if (init_package() < 0) { pkg_init = 0; goto done; }
    }
    if (pkg_init || !pkg_terminating)
        ret = pkg_nfilters;
done:
    return ret;
}

int main(int argc, char **argv)
{
    int rank, value = 0, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        value = get_handle()->memory_location + nfilters() + 38;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < get_handle()->nvectors; i++)
        MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (nfilters() == 3)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("value %d\n", value);
    MPI_Finalize();
    return 0;
}
