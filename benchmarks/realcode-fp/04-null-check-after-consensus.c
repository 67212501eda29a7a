/* From fftw3-3.3.10 mpi/transpose-recurse.c:190-240 + :63-71 (apply), also
 * transpose-alltoall.c:57-89, transpose-pairwise.c:109-147, dft-rank1.c:111,126:
 * ~30 warnings "call to cld1->apply() may not be reached by all processes" /
 * "MPI_Alltoall on ego->comm may be called in a different order", note "depends on the
 * process rank (MPI_Comm_rank at transpose-recurse.c:190)".
 * Each rank plans its LOCAL block (size from the rank), so a child plan could be NULL on
 * some ranks only -- which is why FFTW checks 'if (any_true(!cld1, comm)) goto nada;'
 * (an allreduce with MPI_LOR): past that check cld1 != NULL on EVERY rank, and the later
 * 'if (cld1) cld1->apply(...)' (a collective transpose) is taken by all or none.
 * Correct: after a collective consensus on 'x == NULL', x's NULL-ness is uniform.
 * Pattern: a per-process value refined by a collective agreement on a predicate.
 * Silent since the thirty-first session (rankdep/consensus.py: the vote makes the
 * truth of 'local' uniform, the value stays per-process); before, this program was
 * silent only because a malloc result was taken as the same everywhere, and with the
 * per-process NULL below it warned. */
#include <mpi.h>
#include <stdlib.h>

static int any_true(int condition, MPI_Comm comm)
{
    int result;
    MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm);
    return result;
}

int transpose(MPI_Comm comm, int n)
{
    int me, np, *local, sum = 0, total;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    local = n / np + (me < n % np) ? malloc(sizeof(int) * (size_t)(n / np + 1))
                                    : NULL;                      /* per-process */
    if (any_true(local == NULL, comm)) { free(local); return -1; }  /* all or none */
    if (local)                                    /* true on every rank here */
        MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, comm);
    free(local);
    return total;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    transpose(MPI_COMM_WORLD, 100);
    MPI_Finalize();
    return 0;
}
