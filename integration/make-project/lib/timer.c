/* Phase timers on MPI_Wtime; the slowest rank's time is reduced to rank 0. */
#include "halo.h"

void halo_timer_start(halo_timer *t, const char *name)
{
    if (t->name != name) {
        t->name = name;
        t->total = 0.0;
    }
    t->start = MPI_Wtime();
}

void halo_timer_stop(halo_timer *t)
{
    t->total += MPI_Wtime() - t->start;
}

/* Maximum over the ranks of comm, valid on rank 0. */
double halo_timer_max(const halo_timer *t, MPI_Comm comm)
{
    double slowest = 0.0;
    MPI_Reduce(&t->total, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    return slowest;
}
