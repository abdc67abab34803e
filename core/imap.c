/* imap.c: int -> index, open addressing with linear probing. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "imap.h"
#include "xmalloc.h"

#define EMPTY	INT32_MIN	/* no key: ranks are never negative here */

static size_t
slot_of(int key, size_t cap)
{
	uint32_t h = (uint32_t)key * 2654435761u;	/* Knuth's multiplicative hash */

	return (size_t)h & (cap - 1);
}

void
imap_release(struct imap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

void
imap_clear(struct imap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		m->key[i] = EMPTY;
	m->n = 0;
}

static void
grow(struct imap *m)
{
	int *okey = m->key;
	uint32_t *oval = m->val;
	size_t ocap = m->cap, i;

	m->cap = ocap ? ocap * 2 : 64;
	m->key = xmalloc(m->cap * sizeof *m->key);
	m->val = xmalloc(m->cap * sizeof *m->val);
	m->n = 0;
	imap_clear(m);
	for (i = 0; i < ocap; i++)
		if (okey[i] != EMPTY)
			imap_set(m, okey[i], oval[i]);
	free(okey);
	free(oval);
}

void
imap_set(struct imap *m, int key, size_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	for (i = slot_of(key, m->cap); m->key[i] != EMPTY; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			m->val[i] = (uint32_t)val;
			return;
		}
	m->key[i] = key;
	m->val[i] = (uint32_t)val;
	m->n++;
}

int
imap_get(const struct imap *m, int key, size_t *val)
{
	size_t i;

	if (m->cap == 0)
		return 0;
	for (i = slot_of(key, m->cap); m->key[i] != EMPTY; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			*val = m->val[i];
			return 1;
		}
	return 0;
}
