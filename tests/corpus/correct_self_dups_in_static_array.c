// corpus: correct
// output-deterministic
// MPICH's test helper (test/mpi/util/mtest.c, MTestCommRandomize): each rank keeps a
// rand() number of duplicates of MPI_COMM_SELF in a file-scope static array and frees
// them at the end.  Every element is a one-member communicator (or still zero, no
// communicator at all), so freeing a per-process number of them is no mismatch.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_DUPS 8
static MPI_Comm self_dups[MAX_DUPS];
static int num_dups;

static void randomize(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    srand(rank + 1);
    num_dups = rand() % MAX_DUPS;
    for (int i = 0; i < num_dups; i++)
        MPI_Comm_dup(MPI_COMM_SELF, &self_dups[i]);
}

static void cleanup(void)
{
    for (int i = 0; i < num_dups; i++)
        MPI_Comm_free(&self_dups[i]);
}

int main(int argc, char **argv)
{
    int rank, size, one = 1, total = 0;

    MPI_Init(&argc, &argv);
    randomize();
    if (num_dups > 0)
        MPI_Barrier(self_dups[0]);
    cleanup();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %s\n", rank, total == size ? "ok" : "wrong");
    MPI_Finalize();
    return 0;
}
