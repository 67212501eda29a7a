/* Hand-written collectives, and exchanges that are not collectives, for the cDAG tests:
 * ./handwritten PATTERN [REPS [noise]].
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

/* Binomial-tree gather: each rank forwards the blocks of its subtree to its parent. */
static void tree_gather(void)
{
    memcpy(out + N * rank, buf, sizeof(double) * N);
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            int n = mask < size - rank ? mask : size - rank;
            MPI_Send(out + N * rank, N * n, MPI_DOUBLE, rank - mask, 11, MPI_COMM_WORLD);
            break;
        }
        if (rank + mask < size) {
            int n = mask < size - rank - mask ? mask : size - rank - mask;
            MPI_Recv(out + N * (rank + mask), N * n, MPI_DOUBLE, rank + mask, 11,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}

/* Recursive-doubling allgather (a power-of-two size): the held blocks double each step. */
static void doubling_allgather(void)
{
    for (int mask = 1; mask < size; mask <<= 1) {
        int partner = rank ^ mask, mine = rank & ~(mask - 1), theirs = partner & ~(mask - 1);
        MPI_Sendrecv(out + N * mine, N * mask, MPI_DOUBLE, partner, 12, out + N * theirs,
                     N * mask, MPI_DOUBLE, partner, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* Butterfly alltoall (a power-of-two size up to 8, cDAG Figure 1): at step j a rank
 * passes its partner r ^ 2^j every block it holds whose destination has the partner's
 * bit j.  A rank keeps its blocks in chunks, each ordered by bit-reversed destination,
 * so that what it passes on is one contiguous run of each chunk: a send reads exactly
 * the memory an earlier receive wrote (the split of the paper's Figure 5).  Every rank
 * simulates the chunk lists of all ranks, so it knows what its partner sends. */
enum { MAXB = 8, MAXCH = 8 };
struct chunk { int n, s[MAXB], d[MAXB]; double *at; };
static struct chunk hold[MAXB][MAXCH];
static int nhold[MAXB];
static double pool[MAXB * MAXB * N];

static int bitrev(int d)
{
    int r = 0;
    for (int m = 1; m < size; m <<= 1)
        r = (r << 1) | ((d & m) != 0);
    return r;
}

/* The run of chunk c whose destinations have bit m equal to `bit`: first index, length. */
static int run_of(const struct chunk *c, int m, int bit, int *len)
{
    int first = -1;
    *len = 0;
    for (int i = 0; i < c->n; i++)
        if (((c->d[i] & m) != 0) == bit) {
            first = first < 0 ? i : first;
            ++*len;
        }
    return first;
}

static struct chunk part(const struct chunk *c, int first, int len, double *at)
{
    struct chunk out = {len, {0}, {0}, at};
    memcpy(out.s, c->s + first, sizeof(int) * len);
    memcpy(out.d, c->d + first, sizeof(int) * len);
    return out;
}

static void butterfly_alltoall(void)
{
    static struct chunk next[MAXB][MAXCH];
    static int nnext[MAXB];
    double *free_at = pool + N * size;
    for (int r = 0; r < size; r++) {
        nhold[r] = 1;
        hold[r][0].n = size;
        for (int d = 0; d < size; d++)
            hold[r][0].s[bitrev(d)] = r, hold[r][0].d[bitrev(d)] = d;
        hold[r][0].at = r == rank ? pool : NULL;
    }
    for (int d = 0; d < size; d++)
        memcpy(pool + N * bitrev(d), buf, sizeof(double) * N);
    for (int m = 1; m < size; m <<= 1) {
        MPI_Request req[2 * MAXCH];
        int nreq = 0;
        for (int r = 0; r < size; r++) {
            int q = r ^ m, keep = (r & m) != 0, len;
            nnext[r] = 0;
            for (int c = 0; c < nhold[r]; c++) {
                int first = run_of(&hold[r][c], m, keep, &len);
                double *at = hold[r][c].at ? hold[r][c].at + N * first : NULL;
                next[r][nnext[r]++] = part(&hold[r][c], first, len, at);
            }
            for (int c = 0; c < nhold[q]; c++) {
                int first = run_of(&hold[q][c], m, keep, &len);
                next[r][nnext[r]++] = part(&hold[q][c], first, len, r == rank ? free_at : NULL);
                if (q == rank) /* what this rank sends */
                    MPI_Isend(hold[q][c].at + N * first, N * len, MPI_DOUBLE, r, 13, MPI_COMM_WORLD, &req[nreq++]);
                if (r == rank) {
                    MPI_Irecv(free_at, N * len, MPI_DOUBLE, q, 13, MPI_COMM_WORLD, &req[nreq++]);
                    free_at += N * len;
                }
            }
        }
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        memcpy(hold, next, sizeof hold);
        memcpy(nhold, nnext, sizeof nhold);
    }
    for (int c = 0; c < nhold[rank]; c++)
        for (int i = 0; i < hold[rank][c].n; i++)
            memcpy(out + N * hold[rank][c].s[i], hold[rank][c].at + N * i, sizeof(double) * N);
    for (int s = 0; s < size; s++) /* rank s's block: what its buf held */
        if (out[N * s] != s * 1000 || out[N * s + N - 1] != s * 1000 + N - 1)
            printf("%d: butterfly lost the block of %d\n", rank, s);
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

/* A 2-D five-point halo exchange on a px x py grid of ranks (px = 2). */
static void stencil2d(void)
{
    int px = 2, py = size / 2, x = rank % px, y = rank / px, n = 0;
    int nb[4] = {x > 0 ? rank - 1 : -1, x < px - 1 ? rank + 1 : -1,
                 y > 0 ? rank - px : -1, y < py - 1 ? rank + px : -1};
    double halo[4][N];
    MPI_Request r[8];
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0 && nb[k] < size) {
            MPI_Irecv(halo[k], N, MPI_DOUBLE, nb[k], 14, MPI_COMM_WORLD, &r[n++]);
            MPI_Isend(buf, N, MPI_DOUBLE, nb[k], 14, MPI_COMM_WORLD, &r[n++]);
        }
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0 && nb[k] < size)
            for (int i = 0; i < N; i++)
                buf[i] = (buf[i] + halo[k][i]) / 2;
}

/* A pipeline: each stage receives an item, works on it, and passes its own result on. */
static void pipeline(void)
{
    double item[N], result[N];
    if (rank > 0)
        MPI_Recv(item, N, MPI_DOUBLE, rank - 1, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        memcpy(item, buf, sizeof item);
    for (int i = 0; i < N; i++)
        result[i] = item[i] * 0.5 + rank;
    if (rank < size - 1)
        MPI_Send(result, N, MPI_DOUBLE, rank + 1, 15, MPI_COMM_WORLD);
    else
        memcpy(out, result, sizeof result);
}

/* Master-worker: rank 0 hands out 3 tasks per worker, one at a time, to whichever
 * worker answers first; a task number < 0 stops a worker. */
static void master_worker(void)
{
    double task, answer, sum = 0;
    if (rank == 0) {
        int next = 0, total = 3 * (size - 1), done = 0;
        for (int w = 1; w < size; w++, next++) {
            task = next;
            MPI_Send(&task, 1, MPI_DOUBLE, w, 16, MPI_COMM_WORLD);
        }
        while (done < total) {
            MPI_Status st;
            MPI_Recv(&answer, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 17, MPI_COMM_WORLD, &st);
            sum += answer; /* in any order: the same total */
            done++;
            task = next < total ? next++ : -1;
            MPI_Send(&task, 1, MPI_DOUBLE, st.MPI_SOURCE, 16, MPI_COMM_WORLD);
        }
        out[0] += sum + done;
    } else
        for (;;) {
            MPI_Recv(&task, 1, MPI_DOUBLE, 0, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (task < 0)
                break;
            answer = task * task;
            MPI_Send(&answer, 1, MPI_DOUBLE, 0, 17, MPI_COMM_WORLD);
        }
}

/* Real collectives, for the trace's per-site counts (MPICC_WRAP_TRACE_DIR). */
static void collectives(void)
{
    MPI_Allreduce(buf, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(buf, N, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
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
        else if (!strcmp(what, "tree_gather"))
            tree_gather();
        else if (!strcmp(what, "doubling_allgather"))
            doubling_allgather();
        else if (!strcmp(what, "butterfly"))
            butterfly_alltoall();
        else if (!strcmp(what, "stencil2d"))
            stencil2d();
        else if (!strcmp(what, "pipeline"))
            pipeline();
        else if (!strcmp(what, "master_worker"))
            master_worker();
        else if (!strcmp(what, "collectives"))
            collectives();
        if (noise)
            extra(k);
    }
    for (int i = 0; i < N * MAXP; i++)
        sum += buf[i] + out[i];
    printf("%d: %.1f\n", rank, sum);
    MPI_Finalize();
    return 0;
}
