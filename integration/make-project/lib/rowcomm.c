/* Rows of a process grid `width` ranks wide, as communicators (MPI_Comm_split). */
#include "halo.h"

int halo_rowcomm_init(halo_rowcomm *rc, int width, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (width < 1)
        width = 1;
    rc->row = rank / width;
    rc->col = rank % width;
    return MPI_Comm_split(comm, rc->row, rc->col, &rc->comm);
}

double halo_rowcomm_sum(const halo_rowcomm *rc, double local)
{
    return halo_global_sum(local, rc->comm);
}

void halo_rowcomm_free(halo_rowcomm *rc)
{
    MPI_Comm_free(&rc->comm);
}
