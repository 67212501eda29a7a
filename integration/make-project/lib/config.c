/* Run parameters: parsed from argv on rank 0 only, then broadcast (MPI_Bcast). */
#include <stdlib.h>

#include "halo.h"

static int parse_positive(const char *s, int fallback)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (*end == '\0' && v > 0 && v < 1000000) ? (int)v : fallback;
}

int halo_config_init(halo_config *cfg, int argc, char **argv, MPI_Comm comm)
{
    int rank;
    int ints[4];
    MPI_Comm_rank(comm, &rank);
    cfg->n = 64;
    cfg->iters = 40;
    cfg->report = 10;
    cfg->row_width = 2;
    cfg->omega = 0.8;
    if (rank == 0) {
        if (argc > 1)
            cfg->n = parse_positive(argv[1], cfg->n);
        if (argc > 2)
            cfg->iters = parse_positive(argv[2], cfg->iters);
        if (argc > 3)
            cfg->report = parse_positive(argv[3], cfg->report);
    }
    ints[0] = cfg->n;
    ints[1] = cfg->iters;
    ints[2] = cfg->report;
    ints[3] = cfg->row_width;
    MPI_Bcast(ints, 4, MPI_INT, 0, comm);
    MPI_Bcast(&cfg->omega, 1, MPI_DOUBLE, 0, comm);
    cfg->n = ints[0];
    cfg->iters = ints[1];
    cfg->report = ints[2];
    cfg->row_width = ints[3];
    return 0;
}
