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
    int mine, holders = 0;

    MPI_Init(&argc, &argv);
    /* Ranks can read the very same nanosecond: they leave MPI_Init together (the
     * deadlock diagnosis duplicates MPI_COMM_WORLD there), and then every rank would
     * call MPI_Barrier.  Read again until one rank alone holds the latest time. */
    do {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        now = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
        MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        mine = now == latest;
        MPI_Allreduce(&mine, &holders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } while (holders != 1);
    if (now == latest)  // expect-note: now == latest
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("process done\n");
    MPI_Finalize();
    return 0;
}
