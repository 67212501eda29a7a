// Cross-TU library, compiled first (libsc's sc_array_push): a growable array of
// quadrants.  Its summary gives no points-to fact for the pointer it returns.
#include <stdlib.h>

typedef struct quad { long id; double w; } Quad;
typedef struct qarray { long n, cap; Quad *at; } QArray;

Quad *qarray_push(QArray *a)
{
    if (a->n == a->cap) {
        a->cap = 2 * a->cap + 4;
        a->at = (Quad *) realloc(a->at, sizeof(Quad) * (size_t) a->cap);
    }
    return &a->at[a->n++];
}

Quad *qarray_at(QArray *a, long i)
{
    return &a->at[i];
}
