// corpus: buggy
// The twin of buggy_union_member_read_as_another.c with the union untagged and a
// named member of a struct (`union { ... } u;`), which has no type name of its own:
// the rank is stored through the integer member and read back through the float
// member, so every rank but 0 waits in the barrier while rank 0 finalises.  Missed
// before the fourteenth session: an untagged union had no key, so its members were
// fields of an unknown owner, one location per member name.
#include <mpi.h>
#include <stdio.h>

struct message {
    int tag;
    union { int code; float weight; } u;
};

int main(int argc, char **argv)
{
    int rank;
    struct message m;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    m.tag = 7;
    m.u.weight = 0.0f;
    m.u.code = rank;
    if (m.u.weight != 0.0f)  // expect-note: m.u.weight
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
