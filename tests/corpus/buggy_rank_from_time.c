// corpus: buggy
// A clock reading differs between processes: the process that read the latest
// time calls MPI_Barrier on its own.
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    struct timespec ts;
    double now, latest = 0.0;

    MPI_Init(&argc, &argv);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    now = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (now == latest)  // expect-note: now == latest
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("process done\n");
    MPI_Finalize();
    return 0;
}
