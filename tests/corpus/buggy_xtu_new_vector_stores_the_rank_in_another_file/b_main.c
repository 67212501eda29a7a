// corpus: buggy
// The vector is one object everywhere, but its constructor fills it from the rank.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int size; int nvectors; } vector_t;
vector_t *vector_create(int size);

int main(int argc, char **argv)
{
    int i;
    vector_t *work;

    MPI_Init(&argc, &argv);
    work = vector_create(4);
    for (i = 0;
         i < work->nvectors; // expect-note: i < work->nvectors
         i++)
        MPI_Barrier(MPI_COMM_WORLD); // expect-warning: MPI_Barrier
    printf("done\n"); // never-printed: done
    free(work);
    MPI_Finalize();
    return 0;
}
