// hang: deadlock
// nprocs: 2 3 4
// expect-report: rank 0 waits in MPI_Probe(from any source, tag 5, MPI_COMM_WORLD)
#include <mpi.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* nobody ever sends tag 5 */
  if (rank == 0)
    MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st); // expect-deadlock: MPI_Probe
  MPI_Finalize();
  return 0;
}
