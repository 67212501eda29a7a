// corpus: buggy
// The loop bound comes from another file's lazily set value, which differs between
// processes: each runs a different number of barriers.
#include <mpi.h>
#include <stdio.h>

int get_steps(void);

int main(int argc, char **argv)
{
    int i;

    MPI_Init(&argc, &argv);
    for (i = 0;
         i < get_steps(); // expect-note: i < get_steps()
         i++)
        MPI_Barrier(MPI_COMM_WORLD); // expect-warning: MPI_Barrier
    printf("done\n"); // never-printed: done
    MPI_Finalize();
    return 0;
}
