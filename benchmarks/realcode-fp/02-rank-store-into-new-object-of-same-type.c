/* From fftw3-3.3.10 mpi/rdft2-serial.c:89-126 (and the same in dft-rank1.c:240,
 * dft-serial.c, rdft-serial.c, *-rank-geq2*.c, *-bigvec.c: ~33 fftw3 warnings).
 * Warned: "call to fftw_mpi_any_true() may not be reached by all processes" with note
 * "depends on the process rank (MPI_Comm_rank at rdft2-serial.c:101)" on the condition
 * 'if (!fftw_mpi_rdft2_serial_applicable(p)) return 0;' at line 89 -- BEFORE that
 * MPI_Comm_rank.  Rank 0 later fills a NEW tensor 'sz->dims[..].n = ...' (other ranks
 * make an empty one); applicable() reads p->sz->dims[..].n of the caller's problem.
 * Correct: the new tensor is not the problem's tensor; the problem is the same on every
 * rank (FFTW's MPI planner is collective), so applicable() and any_true() (an allreduce)
 * are uniform.  Pattern: a rank-dependent store into a fresh object taints every object
 * of the same type (type-based heap), flow-insensitively (even reads before the store). */
#include <mpi.h>
#include <stdlib.h>

typedef struct { int n; } iodim;
typedef struct { int rnk; iodim dims[2]; } tensor;
typedef struct { MPI_Comm comm; tensor *sz; } problem;

static int applicable(const problem *p) { return p->sz->rnk == 1 && p->sz->dims[0].n > 1; }

static int any_true(int condition, MPI_Comm comm)
{
    int result;
    MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm);
    return result;
}

tensor *mkplan(const problem *p)
{
    int my_pe;
    tensor *sz;
    if (!applicable(p)) return NULL;                 /* uniform */
    MPI_Comm_rank(p->comm, &my_pe);
    sz = calloc(1, sizeof *sz);
    if (my_pe == 0 && sz != NULL) {                  /* rank 0 does the serial work */
        sz->rnk = 1;
        sz->dims[0].n = p->sz->dims[0].n;
    }
    if (any_true(sz == NULL, p->comm)) { free(sz); return NULL; }
    return sz;
}

int main(int argc, char **argv)
{
    tensor t = { 1, { { 8 }, { 0 } } };
    problem p;
    MPI_Init(&argc, &argv);
    p.comm = MPI_COMM_WORLD; p.sz = &t;
    free(mkplan(&p));
    MPI_Finalize();
    return 0;
}
