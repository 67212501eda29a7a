// corpus: correct
// output-deterministic
// hdf5's selection iterators (src/H5Sselect.c), reduced: a method is called through a
// struct field whose prototype takes the object as a pointer to const, with an
// argument that differs between processes.  The method cannot write the object
// through that pointer, so the object's mode, the same everywhere, stays so.
#include <mpi.h>
#include <stdio.h>

struct space;
typedef int (*count_fn)(const struct space *sp, int rank);
struct klass {
    count_fn count;
};
struct space {
    int mode;
    const struct klass *type;
};

static int plain_count(const struct space *sp, int rank) { return sp->mode + rank; }
static int twice_count(const struct space *sp, int rank) { return 2 * (sp->mode + rank); }
static const struct klass klasses[2] = {{plain_count}, {twice_count}};

int main(int argc, char **argv)
{
    struct space sp;
    int rank, n, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sp.mode = argc > 1;
    sp.type = &klasses[argc > 2];
    n = (*sp.type->count)(&sp, rank);
    if (sp.mode == 0)
        MPI_Allreduce(&n, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("total %d\n", total);
    MPI_Finalize();
    return 0;
}
