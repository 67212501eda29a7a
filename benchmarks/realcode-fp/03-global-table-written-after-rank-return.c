/* From pnetcdf-1.12.3 src/dispatchers/file.c:582-598 + :720 (ncmpi_open), which poisons
 * every collective API of pnetcdf (dimension.c:32, var_getput.c:912, attribute.c,
 * variable.c, ... "depends on the process rank (returned by PNC_check_id() at ...)").
 * In ncmpi_open, rank 0 alone may return early -- only when nprocs == 1 -- and later
 * new_id_PNCList() stores the new file into the global table pnc_filelist[].  The
 * analysis then takes the global table as per-process, so PNC_check_id() "returns the
 * rank" (its cross-TU summary says returns_rank, as do 41 of the 46 other functions of file.c) and
 * every 'err = PNC_check_id(ncid, &pncp); if (err) return err;' guards the collectives
 * that follow.  Correct: the early return happens only when rank 0 is the only process,
 * so every process that goes on stores the same table entry; the table is uniform.
 * Pattern: stores after a rank-dependent return (implicit flow) poison globals, and
 * through them every function of the program that reads them. */
#include <mpi.h>
#include <stdlib.h>

typedef struct { MPI_Comm comm; int flag; } File;
static File *files[8];
static int nfiles;

static int new_id(File *f)
{
    for (int i = 0; i < 8; i++)
        if (files[i] == NULL) { files[i] = f; nfiles++; return i; }
    return -1;
}

int check_id(int id, File **fp)
{
    if (nfiles == 0 || id < 0 || id >= 8 || files[id] == NULL) return -33;
    *fp = files[id];
    return 0;
}

int file_open(MPI_Comm comm, int *idp)
{
    int rank, nprocs, format = 0;
    File *f;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) {
        format = 1;                                 /* root reads the header */
        if (nprocs == 1 && format < 0) return format;  /* alone: no one waits */
    }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);
    f = malloc(sizeof *f);
    f->comm = comm; f->flag = format;
    *idp = new_id(f);
    return 0;
}

int def_dim(int id, int size)
{
    File *fp;
    int minE;
    if (check_id(id, &fp) != 0) return -33;         /* same id on all ranks */
    MPI_Allreduce(&size, &minE, 1, MPI_INT, MPI_MIN, fp->comm);
    return minE;
}

int main(int argc, char **argv)
{
    int id;
    MPI_Init(&argc, &argv);
    file_open(MPI_COMM_WORLD, &id);
    def_dim(id, 10);
    MPI_Finalize();
    return 0;
}
