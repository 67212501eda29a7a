/* mpiccwrap_text.c - see mpiccwrap_text.h. */
#include "mpiccwrap_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mpiccwrap_text_printf(struct mpiccwrap_text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = 2 * (t->len + (size_t)n + 1);
        char *text = realloc(t->text, cap);
        if (!text)
            return;
        t->text = text;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->text + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}
