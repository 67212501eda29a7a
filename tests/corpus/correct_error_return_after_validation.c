// corpus: correct
// output-deterministic
// Scotch's dgraphBuild3 (dgraph_build.c), reduced: a function checks the labels it
// received from a neighbour, and on a duplicate reports an error and returns 1.  The
// labels differ between processes, so the test differs too, but its arm only runs on
// invalid input: it reports an error and returns a failure (an error arm, like an
// MPI call's failure arm).  In a run without errors no process takes it, and every
// process reaches the barrier.  -Wmpi-error-divergence reports the path.
#include <mpi.h>
#include <stdio.h>

static void errorPrint(const char *msg)
{
    fprintf(stderr, "error: %s\n", msg);
}

static int check_labels(const int *labels, int n)
{
    int i, bad = 0;

    for (i = 1; i < n; i++)
        if (labels[i] == labels[i - 1])
            bad = 1; /* a duplicate: invalid input */
    if (bad != 0) {
        errorPrint("duplicate vertex label");
        return 1;
    }
    return 0;
}

static int exchange(int rank, int size, MPI_Comm comm)
{
    int mine[2], theirs[2];

    mine[0] = 2 * rank;
    mine[1] = 2 * rank + 1;
    MPI_Sendrecv(mine, 2, MPI_INT, (rank + 1) % size, 3, theirs, 2, MPI_INT,
                 (rank + size - 1) % size, 3, comm, MPI_STATUS_IGNORE);
    if (check_labels(theirs, 2) != 0)
        return 1;
    MPI_Barrier(comm);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc = exchange(rank, size, MPI_COMM_WORLD);
    if (rank == 0)
        printf("labels checked: %s\n", rc == 0 ? "ok" : "duplicates");
    MPI_Finalize();
    return 0;
}
