/* Mean and standard deviation across ranks with two MPI_Allreduce calls. */
#include <math.h>

#include "ringstats.h"

void stats_mean_std(double value, MPI_Comm comm, double *mean, double *std)
{
    int size;
    double sum = 0.0, sq = 0.0, dev;
    MPI_Comm_size(comm, &size);
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    *mean = sum / size;
    dev = (value - *mean) * (value - *mean);
    MPI_Allreduce(&dev, &sq, 1, MPI_DOUBLE, MPI_SUM, comm);
    *std = sqrt(sq / size);
}
