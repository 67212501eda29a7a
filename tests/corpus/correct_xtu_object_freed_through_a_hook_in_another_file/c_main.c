// corpus: correct
// output-deterministic
// Three objects of the same size on every process; two are destroyed, the first is
// checked and kept: every process takes the same branch and enters the barrier.
#include <mpi.h>
#include <stdio.h>

typedef struct obj { int n; int spare; } Obj;

Obj *obj_new(int n);
void obj_destroy(Obj *o);

int main(int argc, char **argv)
{
    Obj *objs[3];
    int me, j;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (j = 0; j < 3; j++)
        objs[j] = obj_new(4);
    for (j = 1; j < 3; j++)
        obj_destroy(objs[j]);
    if (objs[0]->n != 4) {
        obj_destroy(objs[0]);
        MPI_Finalize();
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("kept %d\n", objs[0]->n);
    obj_destroy(objs[0]);
    MPI_Finalize();
    return 0;
}
