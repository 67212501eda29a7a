// corpus: correct
// output-deterministic
// Issue 9's root-parameter pattern: rank 0 packs a flag it read into the parameter
// block and broadcasts it, then branches on its own flag; the others receive the
// block, unpack the flag and branch on the copy.  The two tests are the same value on
// every process (rootarm.py: only the broadcast's root runs the first arm, and a
// root's buffer is what it sends), so the second broadcasts are made by all or none.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, use_time = 0;
    int params[33] = {0};
    double t = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        FILE *f = fopen("/nonexistent/mpicc-wrap/params", "r");
        use_time = f == NULL;
        if (f)
            fclose(f);
        t = 2.5;
        params[32] = use_time;
        params[0] = 7;
        MPI_Bcast(params, 33, MPI_INT, 0, MPI_COMM_WORLD);
        if (use_time)
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(params, 33, MPI_INT, 0, MPI_COMM_WORLD);
        use_time = params[32];
        if (use_time)
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d use_time %d t %.1f first %d\n", rank, use_time, t, params[0]);
    MPI_Finalize();
    return 0;
}
