// corpus: correct
// output-deterministic
// pnetcdf's ncmpio_fill.c: a loop skips the rest of a round when a process's own
// count overflows (a per-process `continue`) and calls a helper at the top of each
// round with the round's variable.  Every process runs the next round, so the
// variable, read fresh from shared data there, and the helper's error code are the
// same on all.  The continue gated every later round (statements._leaving), so the
// error, the status made from it, and the allreduce after `if (status)` were warned.
#include <mpi.h>
#include <stdio.h>

struct var { int type; int size; };
static int check_var(const struct var *v, long n, char *buf)
{
    long i;

    if (v->type != 1 && v->type != 2)
        return -45;
    for (i = 0; i < n && i < 8; i++)
        buf[i] = (char) v->size;
    return 0;
}
static int fill_all(MPI_Comm comm, struct var *vars, int nvars, int rank)
{
    int i, k = 0, err, status = 0;
    long count;
    char buf[8];
    const struct var *varp;
    for (i = 0; i < nvars; i++) {
        varp = &vars[i];
        count = (long) (rank + 1) * varp->size;
        err = check_var(varp, count, buf);
        if (err != 0) {
            status = status ? status : err;
            continue;
        }
        if (count > 6)
            continue;  /* this process's own overflow: skip the rest of the round */
        k++;
    }
    if (status != 0)
        return status;
    MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_INT, MPI_SUM, comm);
    return k;
}

int main(int argc, char **argv)
{
    struct var vars[3] = {{1, 1}, {2, 2}, {3, 1}};
    struct var good[2] = {{1, 1}, {2, 3}};
    int rank, a, b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    a = fill_all(MPI_COMM_WORLD, vars, 3, rank);
    b = fill_all(MPI_COMM_WORLD, good, 2, rank);
    if (rank == 0)
        printf("status %d, filled %d\n", a, b);
    MPI_Finalize();
    return 0;
}
