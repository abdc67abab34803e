/* wrap.h: text wrapped to a width in terminal cells, and tables whose
 * cells wrap within their columns (the encyclopedia's symptoms table). */
#ifndef RW_WRAP_H
#define RW_WRAP_H

#include <stddef.h>

#include "rulebook.h"

/* Cells a UTF-8 string takes (one per code point; wide East Asian
 * characters are rare in logs and entries and count as one). */
size_t	wrap_cells(const char *s, size_t n);
/* Wrap s into lines of at most width cells (words longer than width are
 * cut). Appends to out; returns the number of lines added. */
size_t	wrap_text(const char *s, int width, struct strlist *out);
/* Lay out one table row: cell i wrapped to widths[i], the cells side by
 * side, padded, separated by sep. Appends the resulting lines to out. */
size_t	wrap_row(const char *const *cells, const int *widths, size_t ncols,
	    const char *sep, struct strlist *out);
void	wrap_free(struct strlist *l);

#endif
