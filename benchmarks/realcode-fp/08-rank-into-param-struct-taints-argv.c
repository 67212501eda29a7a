/* From sundials-6.4.1 examples/arkode/C_parallel/ark_brusselator1D_task_local_nls.c:1504-
 * 1564 (SetupProblem): "call to InputError() may not be reached by all processes" (it
 * contains an MPI_Barrier), note "depends on the process rank (MPI_Comm_rank at :1504)"
 * on 'if (strcmp(argv[i], "--help") == 0)'.  :1504 is
 * 'MPI_Comm_rank(udata->comm, &udata->myid);' -- the rank stored through the user-data
 * pointer parameter; the condition reads argv[i], another pointer parameter.
 * Correct: the command line is the same on every rank (mpiexec passes the same argv),
 * and storing the rank into *udata cannot change argv's strings.
 * Pattern: a rank written through one pointer parameter taints what is read through the
 * other pointer parameters (they are assumed to alias). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

typedef struct { MPI_Comm comm; int myid; int nprocs; } userdata;

static void input_error(const char *name)
{
    int myid;
    MPI_Comm_rank(MPI_COMM_WORLD, &myid);
    MPI_Barrier(MPI_COMM_WORLD);
    if (myid == 0) fprintf(stderr, "usage: %s [--help]\n", name);
}

int setup(int argc, char *argv[], userdata *udata)
{
    udata->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(udata->comm, &udata->myid);
    MPI_Comm_size(udata->comm, &udata->nprocs);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) { input_error(argv[0]); return -1; }
    return 0;
}

int main(int argc, char **argv)
{
    userdata ud;
    MPI_Init(&argc, &argv);
    setup(argc, argv, &ud);
    MPI_Finalize();
    return 0;
}
