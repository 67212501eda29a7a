// hypre's hypre_handle(): the handle is created by whichever call first needs it.
#include <stdlib.h>

typedef struct { int memory_location; int nvectors; } handle_t;
handle_t *the_handle;

static handle_t *handle_create(void)
{
    handle_t *h = malloc(sizeof *h);
    h->memory_location = 1;
    h->nvectors = 2;
    return h;
}

handle_t *get_handle(void)
{
    if (!the_handle)
        the_handle = handle_create();
    return the_handle;
}
