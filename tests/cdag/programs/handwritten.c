/* Hand-written collectives for the cDAG tests: ./handwritten PATTERN [REPS].
 * Every rank prints one "rank: value" line, so a run with recording on must print
 * the same lines as one without. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4, MAXP = 64 };
static int rank, size;
static double buf[N * MAXP], out[N * MAXP];

static void bcast_linear(void)
{
    if (rank == 0) {
        for (int j = 1; j < size; j++)
            MPI_Send(buf, N, MPI_DOUBLE, j, 1, MPI_COMM_WORLD);
    } else
        MPI_Recv(buf, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* A linear broadcast from rank 0 of a communicator split off anew each time, its
 * ranks in reverse world order every second time (MPI reuses the freed handle, so the
 * recording must not keep a freed communicator's ranks). */
static void bcast_comm(int k)
{
    MPI_Comm c;
    int me;
    MPI_Comm_split(MPI_COMM_WORLD, 0, k % 2 ? size - rank : rank, &c);
    MPI_Comm_rank(c, &me);
    if (me == 0) {
        buf[0] += 1; /* new data: not what this rank received last time */
        for (int j = 1; j < size; j++)
            MPI_Send(buf, N, MPI_DOUBLE, j, 10, c);
    } else
        MPI_Recv(buf, N, MPI_DOUBLE, 0, 10, c, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
}

static void bcast_binomial(void)
{
    int mask = 1;
    while (mask < size) {
        if (rank & mask) {
            MPI_Recv(buf, N, MPI_DOUBLE, rank - mask, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rank + mask < size)
            MPI_Send(buf, N, MPI_DOUBLE, rank + mask, 2, MPI_COMM_WORLD);
}

static void gather(void)
{
    if (rank == 0) {
        for (int k = 1; k < size; k++) { /* any order: the block goes where its source says */
            MPI_Status st;
            MPI_Probe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
            MPI_Recv(out + N * st.MPI_SOURCE, N, MPI_DOUBLE, st.MPI_SOURCE, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    } else
        MPI_Send(buf, N, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
}

static void scatter(void)
{
    if (rank == 0) {
        MPI_Request r[MAXP];
        for (int j = 1; j < size; j++)
            MPI_Isend(out + N * j, N, MPI_DOUBLE, j, 4, MPI_COMM_WORLD, &r[j - 1]);
        MPI_Waitall(size - 1, r, MPI_STATUSES_IGNORE);
    } else
        MPI_Recv(buf, N, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void ring_allgather(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int k = 0; k < size - 1; k++) {
        int sb = (rank - k + size) % size, rb = (rank - k - 1 + size) % size;
        MPI_Sendrecv(out + N * sb, N, MPI_DOUBLE, right, 5, out + N * rb, N, MPI_DOUBLE, left, 5,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void pairwise_alltoall(void)
{
    for (int k = 1; k < size; k++) {
        int dst = (rank + k) % size, src = (rank - k + size) % size;
        MPI_Request r[2];
        MPI_Irecv(out + N * src, N, MPI_DOUBLE, src, 6, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(buf + N * dst, N, MPI_DOUBLE, dst, 6, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
}

static void dissemination_barrier(void)
{
    for (int d = 1; d < size; d <<= 1)
        MPI_Sendrecv(NULL, 0, MPI_BYTE, (rank + d) % size, 7, NULL, 0, MPI_BYTE,
                     (rank - d + size) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void stencil(void)
{
    double u[N + 2];
    MPI_Request r[4];
    int n = 0;
    memcpy(u + 1, buf, sizeof(double) * N);
    if (rank > 0) {
        MPI_Irecv(&u[0], 1, MPI_DOUBLE, rank - 1, 8, MPI_COMM_WORLD, &r[n++]);
        MPI_Isend(&u[1], 1, MPI_DOUBLE, rank - 1, 8, MPI_COMM_WORLD, &r[n++]);
    }
    if (rank < size - 1) {
        MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, rank + 1, 8, MPI_COMM_WORLD, &r[n++]);
        MPI_Isend(&u[N], 1, MPI_DOUBLE, rank + 1, 8, MPI_COMM_WORLD, &r[n++]);
    }
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++)
        buf[i] = (u[i] + u[i + 1] + u[i + 2]) / 3;
}

static void extra(int k)
{
    /* an unrelated message between two ranks, of another size */
    int a = k % size, b = (k + 2) % size, v = k;
    if (a == b)
        return;
    if (rank == a)
        MPI_Send(&v, 1, MPI_INT, b, 9, MPI_COMM_WORLD);
    if (rank == b)
        MPI_Recv(&v, 1, MPI_INT, a, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "bcast_linear";
    int reps = argc > 2 ? atoi(argv[2]) : 3, noise = argc > 3 && !strcmp(argv[3], "noise");
    double sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < N * MAXP; i++)
        buf[i] = out[i] = rank * 1000 + i;
    for (int k = 0; k < reps; k++) {
        if (!strcmp(what, "bcast_linear"))
            bcast_linear();
        else if (!strcmp(what, "bcast_comm"))
            bcast_comm(k);
        else if (!strcmp(what, "bcast_binomial"))
            bcast_binomial();
        else if (!strcmp(what, "gather"))
            gather();
        else if (!strcmp(what, "scatter"))
            scatter();
        else if (!strcmp(what, "ring_allgather"))
            ring_allgather();
        else if (!strcmp(what, "alltoall"))
            pairwise_alltoall();
        else if (!strcmp(what, "barrier"))
            dissemination_barrier();
        else if (!strcmp(what, "stencil"))
            stencil();
        if (noise)
            extra(k);
    }
    for (int i = 0; i < N * MAXP; i++)
        sum += buf[i] + out[i];
    printf("%d: %.1f\n", rank, sum);
    MPI_Finalize();
    return 0;
}
