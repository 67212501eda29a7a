/* ringstats: deterministic output from rank 0 only. */
#include <stdio.h>

#include "ringstats.h"

int main(int argc, char **argv)
{
    int rank, size;
    long token;
    double mean, std;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    token = ring_pass(100, MPI_COMM_WORLD);
    stats_mean_std((double)(rank * rank), MPI_COMM_WORLD, &mean, &std);
    if (rank == 0)
        printf("ranks %d token %ld mean %.6f std %.6f\n", size, token, mean, std);
    MPI_Finalize();
    return 0;
}
