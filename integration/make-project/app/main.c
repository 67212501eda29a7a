/* jacobi [n [iters [report]]]: relax an n x n grid on all ranks and report. */
#include <stdio.h>

#include "jacobi.h"

int main(int argc, char **argv)
{
    halo_config cfg;
    halo_decomp d;
    halo_field a, b;
    jacobi_result res = {0};
    int err = 0, ok, all_ok = 0;

    MPI_Init(&argc, &argv);
    halo_config_init(&cfg, argc, argv, MPI_COMM_WORLD);
    halo_decomp_init(&d, cfg.n, MPI_COMM_WORLD);
    ok = halo_field_alloc(&a, &d) == 0;
    ok = (halo_field_alloc(&b, &d) == 0) && ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok) {
        err = jacobi_solve(&cfg, &a, &b, &res);
        err = jacobi_report(&cfg, &a, &res) || err;
    } else {
        if (d.rank == 0)
            fprintf(stderr, "jacobi: out of memory\n");
        err = 1;
    }
    halo_field_free(&a);
    halo_field_free(&b);
    MPI_Finalize();
    return err;
}
