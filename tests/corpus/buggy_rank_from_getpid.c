// corpus: buggy
// The process id is per-process: only the rank with the largest pid calls
// MPI_Barrier (the maximum itself is agreed on with MPI_Allreduce).
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long pid, maxpid = 0;

    MPI_Init(&argc, &argv);
    pid = (long)getpid();
    MPI_Allreduce(&pid, &maxpid, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (pid == maxpid)  // expect-note: pid == maxpid
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("process done\n");
    MPI_Finalize();
    return 0;
}
