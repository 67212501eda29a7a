// Cross-TU library, compiled FIRST (hypre's hypre_Free): memory goes back through a
// hook the user may install.  The analysis cannot see the hook, so the summary says
// mem_free may write what its argument points to, and that this write is tied to
// the argument (arg_writes "p0:1").
#include <stdlib.h>

typedef void (*free_hook)(void *);
free_hook mem_hook;

void mem_free(void *p)
{
    if (mem_hook)
        mem_hook(p);
    else
        free(p);
}

void mem_copy(void *dst, const void *src, size_t n)
{
    const char *s = (const char *) src;
    char *d = (char *) dst;

    while (n--)
        *d++ = *s++;
}
