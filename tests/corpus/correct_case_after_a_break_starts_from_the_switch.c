// corpus: correct
// output-deterministic
// hypre's hypre_ILUSetup (parcsr_ls/par_ilu_setup.c), reduced: a switch on a setting
// that every process shares picks how to build a permutation.  One case stores a
// per-process count and breaks; another case starts from the switch's entry, where
// the count is still zero on every process, so the rounds it sets are the same
// everywhere and the collectives in the loop are made by all.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, kind, count = 0, rounds = 1, i, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    kind = argc > 1 ? 1 : 2; /* the same command line on every process */
    switch (kind) {
    case 1:
        count = rank + 1;
        break;
    case 2:
        rounds = count + 3;
        break;
    default:
        break;
    }
    for (i = 0; i < rounds; i++) {
        int one = 1, got = 0;
        MPI_Allreduce(&one, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        sum += got;
    }
    if (rank == 0)
        printf("rounds %d sum %d\n", rounds, sum);
    MPI_Finalize();
    return 0;
}
