// corpus: correct
// output-deterministic
// Rank 0 creates the handle (in another file) while it reads the input, the others
// at the loop's first test; every process then holds what the same function made.
#include <mpi.h>
#include <stdio.h>

typedef struct { int memory_location; int nvectors; } handle_t;
handle_t *get_handle(void);

int main(int argc, char **argv)
{
    int rank, value = 0, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        value = get_handle()->memory_location + 41;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < get_handle()->nvectors; i++)
        MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("value %d\n", value);
    MPI_Finalize();
    return 0;
}
