// corpus: correct
// output-deterministic
// After obj_free() every process holds MPI_INFO_NULL, so every process takes the
// barrier; before the fifteenth session obj_free()'s summary said it writes the
// handle per-process (its own file makes it so) and this test was warned.
#include <mpi.h>
#include <stdio.h>

typedef struct obj { MPI_Info hints; int n; } Obj;
void obj_free(Obj *o);

int main(int argc, char **argv)
{
    int me;
    Obj o;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    o.hints = MPI_INFO_NULL;
    o.n = 3;
    obj_free(&o);
    if (o.hints == MPI_INFO_NULL)
        MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("freed: %d\n", o.n);
    MPI_Finalize();
    return 0;
}
