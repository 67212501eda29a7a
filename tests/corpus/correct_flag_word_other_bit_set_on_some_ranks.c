// corpus: correct
// output-deterministic
// pnetcdf's flag word, reduced (ncmpio_wait.c): a process whose own record count grew
// sets a "dirty" bit (ncp->flags |= NC_NDIRTY) in independent mode, so that bit
// differs between processes; the mode bit that decides the collective was set by
// every process alike.  Bit i of `flags |= C` depends on bit i of flags and of C
// only, so the test of the mode bit is the same on every rank.
#include <mpi.h>
#include <stdio.h>

#define MODE_COLL 0x1
#define MODE_SHARE 0x2
#define DIRTY 0x400000

typedef struct {
    unsigned flags;
    long numrecs;
} file_t;

static void write_records(file_t *f, long mine)
{
    if (mine > f->numrecs) {       /* differs between processes */
        f->numrecs = mine;
        f->flags |= DIRTY;
    }
}

static void sync_if_collective(file_t *f, MPI_Comm comm)
{
    long total = 0;
    if (f->flags & MODE_COLL)      /* the same on every process */
        MPI_Allreduce(&f->numrecs, &total, 1, MPI_LONG, MPI_MAX, comm);
    if ((f->flags & (MODE_COLL | MODE_SHARE)) == MODE_COLL)
        MPI_Barrier(comm);
    f->flags &= ~DIRTY;
    f->numrecs = total;
}

int main(int argc, char **argv)
{
    int rank;
    file_t f = {0, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    f.flags |= MODE_COLL;
    write_records(&f, rank % 2 ? 3 : 0);
    sync_if_collective(&f, MPI_COMM_WORLD);
    if (rank == 0)
        printf("records %ld\n", f.numrecs);
    MPI_Finalize();
    return 0;
}
