/* mpiccwrap_shm.c - leave no MPI shared memory behind when a job dies.
 *
 * MPICH keeps one node segment, /dev/shm/mpich_shm_<id>_0, linked from MPI_Init to
 * MPI_Finalize.  When a job ends any other way (mpicc-wrap's own MPI_Abort after a
 * collective mismatch or a deadlock, a rank's exit(1), a crash, a hang killed by a
 * time limit) nobody unlinks it and its pages stay in RAM until the node reboots:
 * 2-4 MB per aborted run, which filled a 24 GiB test machine in a day of runs.
 *
 * Once every rank of the node has attached, the name is no longer needed (MPICH
 * attaches only in MPI_Init and keeps the mapping), so the interception unlinks it
 * right after its own PMPI_Comm_dup of MPI_COMM_WORLD at the end of MPI_Init: that
 * dup cannot complete on any rank before every rank has left PMPI_Init.  The memory
 * lives on while mapped and goes when the last rank exits, however it exits.
 * MPI_Finalize's own unlink then finds nothing, which MPICH ignores.  Open MPI cleans
 * its segments itself and its peers open them by name later: they are left alone. */
#include "mpiccwrap_hang.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MW_SHM_PREFIX "/dev/shm/mpich_shm_"

void mpiccwrap_shm_release(void)
{
    char line[4096];
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return;
    while (fgets(line, sizeof line, maps)) {
        char *path = strstr(line, MW_SHM_PREFIX);
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        if (!strchr(path, ' ')) /* " (deleted)": unlinked already */
            unlink(path);
    }
    fclose(maps);
}
