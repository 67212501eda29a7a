/* A real bug in hypre 2.26 (Debian's hypre_2.26.0-3), triaged in realcode-triage.md
   ("twenty-sixth session"): hypre_CSRMatrixToParCSRMatrix (parcsr_mv/par_csr_matrix.c,
   lines 1271-1395) sets global_data[3] on rank 0 alone, broadcasts only
   global_data[0..2], then branches on global_data[3].  When rank 0 gives distinct row
   and column partitions (global_data[3] == 2) it calls MPI_Scatter four times and the
   others twice; the two extra scatters pass as the others' next ones and the job
   hangs (rank 0 in a scatter, the others in MPI_Recv from rank 0).

   After benchmarks/realcode.py --projects hypre (H: the hypre tree's src/):
     mpicc-wrap -I$H -I$H/hypre/include -I$H/utilities -I$H/seq_mv -I$H/parcsr_mv \
         hypre_csr_to_parcsr.c -o drive "$H/hypre/lib/libHYPRE@HYPRE_LIBNAME_EXT@.a" -lm
     MPICC_WRAP_HANG_COLLECTIVES=1 mpiexec -n 2 ./drive    # DEADLOCK: report, exit 78
   Without MPICC_WRAP_HANG_COLLECTIVES=1 it hangs until killed. */
#include <stdio.h>
#include "_hypre_parcsr_mv.h"

int main(int argc, char **argv)
{
    int rank, i;
    HYPRE_BigInt rows[3] = {0, 2, 4}, cols[3] = {0, 1, 4};
    hypre_CSRMatrix *A = NULL;
    hypre_ParCSRMatrix *P;

    hypre_MPI_Init(&argc, &argv);
    HYPRE_Init();
    hypre_MPI_Comm_rank(hypre_MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        A = hypre_CSRMatrixCreate(4, 4, 4);
        hypre_CSRMatrixInitialize(A);
        for (i = 0; i < 4; i++) {
            hypre_CSRMatrixI(A)[i] = i;
            hypre_CSRMatrixJ(A)[i] = i;
            hypre_CSRMatrixData(A)[i] = 1.0;
        }
        hypre_CSRMatrixI(A)[4] = 4;
    }
    P = hypre_CSRMatrixToParCSRMatrix(hypre_MPI_COMM_WORLD, A,
                                      rank == 0 ? rows : NULL, rank == 0 ? cols : NULL);
    printf("rank %d: converted, %d local rows\n", rank,
           (int) hypre_CSRMatrixNumRows(hypre_ParCSRMatrixDiag(P)));
    HYPRE_Finalize();
    hypre_MPI_Finalize();
    return 0;
}
