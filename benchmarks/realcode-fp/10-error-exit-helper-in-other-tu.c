/* From p4est-2.2 example/simple/simple2.c:377-395 (and simple3.c:329, timings2.c:751,
 * tetgen/read_tetgen.c:87, points/points2.c:238; re-run on fcbf2a8, see
 * realcode-triage.md).  Warned: "MPI_Finalize on MPI_COMM_WORLD may not be reached by all
 * processes", counter-example "... the others call sc_abort_verbose() ... and never return".
 * The rank-dependent branch is rank 0's SC_CHECK_ABORT (sc_abort_verbose -> sc_abort ->
 * abort(), in libsc's sc.c, another TU) or sc_abort_collective (abort() on every path).
 * Correct under issue 9 item 3: a path that can only end in an error exit is
 * job-terminating.  Pattern: the same file as one TU is silent (die() is seen to end in
 * abort()); with die() in another TU the caller knows only that die() does not return
 * (its declaration), not that it is an error exit -- the cross-TU summary does not carry it.
 * Two TUs from this one file (the helper must be in another TU):
 *   mpicc-wrap -DHELPER -c 10-error-exit-helper-in-other-tu.c -o helper.o
 *   mpicc-wrap -c 10-error-exit-helper-in-other-tu.c -o main.o && mpicc-wrap main.o helper.o */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef HELPER
void die_inner(void) { abort(); }
void die(const char *msg) { fprintf(stderr, "%s\n", msg); die_inner(); }
#else
void die(const char *msg) __attribute__((noreturn));
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && argc > 5)
        die("usage");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
#endif
