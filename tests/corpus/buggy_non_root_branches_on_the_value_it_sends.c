// corpus: buggy
// The root-parameter pattern with the wrong arm packing: rank 1 packs its own flag
// and branches on it, but the broadcast's root is rank 0, which runs the other arm
// and sends its own block.  Rank 1 sets the flag and makes the second broadcast;
// rank 0 sends 0 and the others skip it: the job hangs.  Only a root's buffer is what
// it sends, so the two tests are not proven equal (rootarm.py) and the rank test
// decides the second broadcasts.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, use_time = 0;
    int params[33] = {0};
    double t = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {                                         // expect-note: rank == 1
        FILE *f = fopen("/nonexistent/mpicc-wrap/params", "r");
        use_time = f == NULL;
        if (f)
            fclose(f);
        params[32] = use_time;
        MPI_Bcast(params, 33, MPI_INT, 0, MPI_COMM_WORLD);
        if (use_time)
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);  // expect-warning: MPI_Bcast
    } else {
        MPI_Bcast(params, 33, MPI_INT, 0, MPI_COMM_WORLD);
        use_time = params[32];
        if (use_time)
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);  // expect-warning: MPI_Bcast
    }
    printf("rank %d use_time %d\n", rank, use_time);
    MPI_Finalize();
    return 0;
}
