/* xmalloc.h: allocation that never returns NULL.
 * Out of memory is handled here, once: print and exit. Nothing else in the
 * program checks malloc's result. */
#ifndef RW_XMALLOC_H
#define RW_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grow an array *p of *cap elements of size elem so it holds at least need. */
void *xgrow(void *p, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define XGROW(arr, cap, need) ((arr) = xgrow((arr), &(cap), (need), sizeof *(arr)))

#endif
