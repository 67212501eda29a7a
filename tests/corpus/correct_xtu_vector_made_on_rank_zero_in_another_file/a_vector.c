// A constructor in another file: its summary says it allocates what it returns and
// which fields it writes only there (new_writes), so a caller that makes one on
// rank 0 alone does not make those fields differ.
#include <stdlib.h>

typedef struct { int size; int nvectors; } vector_t;

vector_t *vector_create(int size)
{
    vector_t *v;
    if (size < 0)
        return NULL;
    v = malloc(sizeof *v);
    v->size = size;
    v->nvectors = 1;
    return v;
}
