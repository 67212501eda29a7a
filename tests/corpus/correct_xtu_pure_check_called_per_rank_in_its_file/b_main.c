// corpus: correct
// output-deterministic
// Every rank checks the same variable, so every rank takes the same branch;
// before the fifteenth session check_len()'s summary said its result differs
// between processes, because its own file calls it with a per-process pointer.
#include <mpi.h>
#include <stdio.h>

typedef struct var { long len; } Var;
extern Var vars[4];
int check_len(const Var *v, long max);
int local_ok(MPI_Comm comm);

int main(int argc, char **argv)
{
    int me, ok, all;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (check_len(&vars[2], 10))
        MPI_Barrier(MPI_COMM_WORLD);
    ok = local_ok(MPI_COMM_WORLD);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (me == 0)
        printf("all ok: %d\n", all);
    MPI_Finalize();
    return 0;
}
