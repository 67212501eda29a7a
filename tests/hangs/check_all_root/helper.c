// compile: mpicc
#include <mpi.h>

/* compiled by plain mpicc, so never analysed: the ranks disagree on the root */
void share(int rank, int *x) {
  MPI_Bcast(x, 1, MPI_INT, rank % 2, MPI_COMM_WORLD); // expect-dynamic: MPI_Bcast
}
