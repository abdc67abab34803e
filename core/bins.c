/* bins.c: a rank's lines and event roles per time slice, sparse while
 * they are few (see bins.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bins.h"
#include "xmalloc.h"

#define SLICE(p)	((p) >> 16)
#define VALUE(p)	((p) & 0xffffu)

/* The pairs of a list of cap cap. */
static inline uint32_t *
pairs_of(union bins_pairs *p, uint16_t cap)
{
	return cap ? p->v : p->in;
}

static inline const uint32_t *
pairs_of_c(const union bins_pairs *p, uint16_t cap)
{
	return cap ? p->v : p->in;
}

void
bins_release(struct bins *b)
{
	if (b->cappairs)
		free(b->pairs.v);
	free(b->dense);
	if (b->caproles)
		free(b->roles.v);
	memset(b, 0, sizeof *b);
}

/* The index of slice i among the pairs v[0..n), or where it would go. */
static size_t
pair_at(const uint32_t *v, size_t n, size_t i)
{
	size_t lo = 0, hi = n;

	/* lines come in time order: the newest slice is the usual one */
	if (n > 0 && SLICE(v[n - 1]) <= i)
		return SLICE(v[n - 1]) == i ? n - 1 : n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (SLICE(v[mid]) < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add value (saturating) or, for or_bits, or it into slice i's pair;
 * returns 0 when a new pair would not fit within max. */
static int
pair_put(union bins_pairs *p, uint16_t *n, uint16_t *cap, size_t max, size_t i,
    unsigned value, int or_bits)
{
	uint32_t *v = pairs_of(p, *cap);
	size_t k = pair_at(v, *n, i);

	if (k < *n && SLICE(v[k]) == i) {
		unsigned x = VALUE(v[k]);

		x = or_bits ? x | value : (x + value > 0xffffu ? 0xffffu : x + value);
		v[k] = (uint32_t)(i << 16 | x);
		return 1;
	}
	if (*n == max)
		return 0;
	if (*n == (*cap ? *cap : BINS_INLINE)) {
		if (*cap == 0) {	/* out of the struct */
			uint32_t *a = xmalloc(2 * BINS_INLINE * sizeof *a);

			memcpy(a, p->in, sizeof p->in);
			p->v = a;
			*cap = 2 * BINS_INLINE;
		} else {
			*cap = (uint16_t)(*cap * 2);
			p->v = xrealloc(p->v, *cap * sizeof *p->v);
		}
		v = p->v;
	}
	memmove(v + k + 1, v + k, (*n - k) * sizeof *v);
	v[k] = (uint32_t)(i << 16 | (value > 0xffffu ? 0xffffu : value));
	(*n)++;
	return 1;
}

static void
densify(struct bins *b)
{
	const uint32_t *v = pairs_of_c(&b->pairs, b->cappairs);
	size_t k;

	b->dense = xcalloc(TIMELINE_BINS, sizeof *b->dense);
	for (k = 0; k < b->npairs; k++)
		b->dense[SLICE(v[k])] = (uint16_t)VALUE(v[k]);
	if (b->cappairs)
		free(b->pairs.v);
	memset(&b->pairs, 0, sizeof b->pairs);
	b->npairs = b->cappairs = 0;
}

static void
add_count(struct bins *b, size_t i, unsigned n)
{
	if (b->dense == NULL && !pair_put(&b->pairs, &b->npairs, &b->cappairs,
	    BINS_SPARSE_MAX, i, n, 0))
		densify(b);
	if (b->dense != NULL)
		b->dense[i] = (uint16_t)(b->dense[i] + n > 0xffffu ? 0xffffu : b->dense[i] + n);
}

void
bins_add(struct bins *b, size_t i)
{
	add_count(b, i, 1);
}

void
bins_add_n(struct bins *b, size_t i, unsigned n)
{
	add_count(b, i, n);
}

void
bins_mark(struct bins *b, size_t i, unsigned roles)
{
	pair_put(&b->roles, &b->nroles, &b->caproles, TIMELINE_BINS, i, roles, 1);
}

unsigned
bins_count(const struct bins *b, size_t i)
{
	const uint32_t *v;
	size_t k;

	if (b->dense != NULL)
		return b->dense[i];
	v = pairs_of_c(&b->pairs, b->cappairs);
	k = pair_at(v, b->npairs, i);
	return k < b->npairs && SLICE(v[k]) == i ? VALUE(v[k]) : 0;
}

unsigned
bins_roles(const struct bins *b, size_t i)
{
	const uint32_t *v = pairs_of_c(&b->roles, b->caproles);
	size_t k = pair_at(v, b->nroles, i);

	return k < b->nroles && SLICE(v[k]) == i ? VALUE(v[k]) : 0;
}

void
bins_remap(struct bins *b, const uint8_t map[TIMELINE_BINS])
{
	struct bins old = *b;
	const uint32_t *pv = pairs_of_c(&old.pairs, old.cappairs);
	const uint32_t *rv = pairs_of_c(&old.roles, old.caproles);
	size_t i, k;

	memset(b, 0, sizeof *b);
	if (old.dense != NULL) {
		for (i = 0; i < TIMELINE_BINS; i++)
			if (old.dense[i] != 0)
				add_count(b, map[i], old.dense[i]);
	} else
		for (k = 0; k < old.npairs; k++)
			add_count(b, map[SLICE(pv[k])], VALUE(pv[k]));
	for (k = 0; k < old.nroles; k++)
		bins_mark(b, map[SLICE(rv[k])], VALUE(rv[k]));
	bins_release(&old);
}
