// An error helper in its own TU, compiled before its caller (libsc's
// sc_abort_verbose -> sc_abort -> abort()): every path ends the job.
#include <stdio.h>
#include <stdlib.h>

static void die_inner(void)
{
    abort();
}

void die(const char *msg)
{
    fprintf(stderr, "fatal: %s\n", msg);
    die_inner();
}
