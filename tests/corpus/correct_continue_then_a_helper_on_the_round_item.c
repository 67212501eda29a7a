// corpus: correct
// output-deterministic
// After a per-process `continue`, the ranks that run the rest of the round agree on
// what it computes from shared data (statements._skipping): here the round's item,
// which a helper checks.  Written under the continue's test, the item made the
// helper's parameter per-process, and with it the helper's verdict everywhere, so
// the barrier after `if (check(&vars[0]) != 0)` in main was warned.  The ranks that
// skipped see the old item at the next round's head, so only there it differs.
#include <mpi.h>
#include <stdio.h>

struct var { int type; int size; };

static int check(const struct var *v)
{
    if (v->type > 2)
        return -1;
    return 0;
}

static int count_ok(struct var *vars, int n, int rank)
{
    int i, k = 0;
    const struct var *v;

    for (i = 0; i < n; i++) {
        if (vars[i].size > rank + 1)
            continue;  /* too big for this process */
        v = &vars[i];
        if (check(v) == 0)
            k++;
    }
    return k;
}

int main(int argc, char **argv)
{
    struct var vars[3] = {{1, 1}, {3, 2}, {2, 3}};
    int rank, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    k = count_ok(vars, 3, rank);
    if (check(&vars[0]) != 0) {
        MPI_Finalize();
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("usable items over all ranks: %d\n", k);
    MPI_Finalize();
    return 0;
}
