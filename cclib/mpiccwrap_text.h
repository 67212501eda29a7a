/* mpiccwrap_text.h - a growing text buffer for the reports of the checker and the
 * deadlock diagnosis: a report is built in memory and written with one call, since a
 * report written piecemeal can lose its end when the process manager tears the job
 * down after MPI_Abort. */
#ifndef MPICCWRAP_TEXT_H
#define MPICCWRAP_TEXT_H

#include <stddef.h>

struct mpiccwrap_text {
    char *text;
    size_t len, cap;
};

/* Append printf-formatted text (dropped when memory runs out). */
void mpiccwrap_text_printf(struct mpiccwrap_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
