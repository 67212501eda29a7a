// corpus: buggy
// obj_copy copies through mem_copy, whose summary writes through its first argument
// from what its arguments point to.  The source holds the rank, so the copy differs
// too: rank 0 reads 0 and skips the barrier the others enter.  Only the object that
// differs makes a write through a pointer per-process (the correct twin); here it
// is the other argument, so the destination is per-process.
#include <mpi.h>
#include <stdio.h>

typedef struct obj { int n; int spare; } Obj;

Obj *obj_new(int n);
void obj_destroy(Obj *o);
void obj_copy(Obj *dst, const Obj *src);

int main(int argc, char **argv)
{
    Obj *mine, *copy;
    int me;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    mine = obj_new(0);
    copy = obj_new(4);
    MPI_Comm_rank(MPI_COMM_WORLD, &mine->n);
    obj_copy(copy, mine);
    if (copy->n > 0)  // expect-note: copy->n > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    obj_destroy(copy);
    obj_destroy(mine);
    MPI_Finalize();
    return 0;
}
