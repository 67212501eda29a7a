// corpus: buggy
// The twin of correct_flag_word_other_bit_set_on_some_ranks.c: the collective is
// under the test of the very bit only some processes set (flags |= DIRTY when the
// process's own count grew).  Rank 1 enters the barrier alone.
#include <mpi.h>
#include <stdio.h>

#define MODE_COLL 0x1
#define DIRTY 0x400000

typedef struct {
    unsigned flags;
    long numrecs;
} file_t;

static void write_records(file_t *f, long mine)
{
    if (mine > f->numrecs) {       /* rank 1 only */
        f->numrecs = mine;
        f->flags |= DIRTY;
    }
}

static void flush(file_t *f, MPI_Comm comm)
{
    if (f->flags & (DIRTY | MODE_COLL) & ~MODE_COLL) // expect-note: f->flags & DIRTY
        MPI_Barrier(comm);         // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    int rank;
    file_t f = {MODE_COLL, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    write_records(&f, rank == 1 ? 3 : 0);
    flush(&f, MPI_COMM_WORLD);
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
