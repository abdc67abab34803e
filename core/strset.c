/* strset.c: a set of strings, open addressing. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "strset.h"
#include "xmalloc.h"

static size_t
hash(const char *p, size_t n)
{
	uint64_t h = fnv1a(FNV1A_INIT, p, n);

	return (size_t)(h ^ (h >> 32));
}

void
strset_release(struct strset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

static char **
slot(char **v, size_t cap, const char *p, size_t n)
{
	size_t i = hash(p, n) & (cap - 1);

	while (v[i] != NULL && (strncmp(v[i], p, n) != 0 || v[i][n] != '\0'))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

const char *
strset_add(struct strset *s, const char *p, size_t n)
{
	return strset_add_with(s, p, n, NULL, 0);
}

const char *
strset_add_with(struct strset *s, const char *p, size_t n, const char *extra, size_t m)
{
	char **at;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16, i;
		char **v = xcalloc(cap, sizeof *v);

		for (i = 0; i < s->cap; i++)
			if (s->v[i] != NULL)
				*slot(v, cap, s->v[i], strlen(s->v[i])) = s->v[i];
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	at = slot(s->v, s->cap, p, n);
	if (*at == NULL) {
		*at = xmalloc(n + 1 + m);
		memcpy(*at, p, n);
		(*at)[n] = '\0';
		if (m > 0)
			memcpy(*at + n + 1, extra, m);
		s->n++;
	}
	return *at;
}
