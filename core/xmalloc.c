/* xmalloc.c: the one place that handles allocation failure. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void
xmalloc_die(size_t size)
{
	fprintf(stderr, "rankwatch: out of memory (allocating %zu bytes)\n", size);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		xmalloc_die(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		xmalloc_die(n * size);
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (q == NULL)
		xmalloc_die(size);
	return q;
}

void *
xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t n;

	if (need <= *cap)
		return p;
	/* doubled while small, then by half: the array of a 131,072-rank
	 * run's 131,073 events has room for 26,391 more, not 131,071 */
	n = *cap ? *cap : 8;
	while (n < need)
		n = n < 4096 ? 2 * n : n + n / 2;
	p = xrealloc(p, n * elem);
	*cap = n;
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return xstrdup("");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
