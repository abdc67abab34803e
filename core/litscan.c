/* litscan.c: many short literals, one pass (see litscan.h).
 *
 * Fingerprint tables: for each of the 3 fingerprint bytes j, lo[j][c & 15]
 * and hi[j][c >> 4] hold the buckets whose literals may have byte c there;
 * a position i is a candidate for bucket b when bit b survives in
 * lo[0][p[i]&15] & hi[0][p[i]>>4] & lo[1][p[i+1]&15] & ... . A bucket
 * with several literals accepts every mix of their nibbles, so which
 * literals share a bucket decides how often the scan stops for nothing:
 * the build measures that on a sample of the logs. The scalar scan uses
 * the same tables folded into one byte table per j. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_TEDDY 1
#endif

#include "litscan.h"
#include "xmalloc.h"

#define NBUCKETS	8
#define FP		3	/* fingerprint bytes */

struct lit {
	unsigned char	*s;	/* icase: letters in lower case */
	size_t		 len;
	int		 icase;
	uint32_t	 target;
	size_t		 w;	/* fingerprint: s[w .. w + FP) */
	uint64_t	 val, mask, fold;	/* len <= 8: one 8-byte compare */
};

struct tables {
	uint8_t		 lo[FP][16], hi[FP][16];
};

struct litscan {
	struct lit	*lits;
	size_t		 nlits, caplits;
	struct tables	 t;
	uint8_t		 byte[FP][256];
	size_t		*bucket[NBUCKETS];	/* literal indices */
	size_t		 nbucket[NBUCKETS];
};

/* The distinct 3-byte sequences of a sample and how often each occurs. */
struct grams3 {
	uint32_t	*key;	/* bytes + 1 << 24; 0: empty slot */
	uint32_t	*count;
	size_t		 cap;	/* a power of 2 */
	size_t		 n;	/* when counted: packed into key[0..n) */
	uint32_t	*start;	/* then grouped by their first two bytes:
				 * key[start[b0 | b1 << 8] ..) (65,537) */
};

static int force_scalar;

/* How common byte c is in log text, roughly (higher: more common): lower
 * case letters by English frequency, then digits, spaces and the
 * punctuation of timestamps and paths; capitals and other punctuation are
 * rare. The guess when there is no sample. */
static int
commonness(unsigned char c)
{
	static const char order[] = "etaoinsrhldcumfpgwybvkxjqz";
	const char *p;

	if (c == ' ' || (c >= '0' && c <= '9'))
		return 40;
	if (c == ':' || c == '.' || c == '/' || c == '_' || c == '-' || c == ',')
		return 30;
	if (c >= 'a' && c <= 'z' && (p = strchr(order, c)) != NULL)
		return 29 - (int)(p - order);
	if (c == '=' || c == '[' || c == ']' || c == '(' || c == ')')
		return 10;
	if (c >= 'A' && c <= 'Z')
		return 8;
	return 1;
}

static int
isletter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

struct litscan *
litscan_new(void)
{
	return xcalloc(1, sizeof(struct litscan));
}

void
litscan_free(struct litscan *ls)
{
	size_t i;

	if (ls == NULL)
		return;
	for (i = 0; i < ls->nlits; i++)
		free(ls->lits[i].s);
	free(ls->lits);
	for (i = 0; i < NBUCKETS; i++)
		free(ls->bucket[i]);
	free(ls);
}

void
litscan_add(struct litscan *ls, const char *lit, size_t len, int icase,
    uint32_t target)
{
	struct lit *l;
	size_t i;

	if (len < FP)
		return;
	XGROW(ls->lits, ls->caplits, ls->nlits + 1);
	l = &ls->lits[ls->nlits++];
	memset(l, 0, sizeof *l);
	l->s = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)lit[i];

		l->s[i] = icase && c >= 'A' && c <= 'Z' ? c + 32 : c;
		if (i < 8) {
			l->val |= (uint64_t)l->s[i] << (8 * i);
			l->mask |= (uint64_t)0xff << (8 * i);
			if (icase && isletter(c))
				l->fold |= (uint64_t)0x20 << (8 * i);
		}
	}
	l->s[len] = 0;
	l->len = len;
	l->icase = icase;
	l->target = target;
}

size_t
litscan_count(const struct litscan *ls)
{
	return ls->nlits;
}

/* --- building --------------------------------------------------------------- */

static uint32_t
g3_hash(uint32_t k, size_t cap)
{
	return (uint32_t)((k * 0x9E3779B1u) >> 7) & (uint32_t)(cap - 1);
}

/* Group the packed grams by their first two bytes (a counting sort), so
 * that rate() visits only the pairs a bucket accepts. */
static void
g3_group(struct grams3 *g)
{
	uint32_t *key = xmalloc((g->n + 1) * sizeof *key);
	uint32_t *count = xmalloc((g->n + 1) * sizeof *count);
	uint32_t *at = xcalloc(65536 + 1, sizeof *at);
	size_t i;

	g->start = xcalloc(65536 + 1, sizeof *g->start);
	for (i = 0; i < g->n; i++)
		g->start[(g->key[i] & 0xffff) + 1]++;
	for (i = 0; i < 65536; i++)
		g->start[i + 1] += g->start[i];
	memcpy(at, g->start, 65536 * sizeof *at);
	for (i = 0; i < g->n; i++) {
		uint32_t k = at[g->key[i] & 0xffff]++;

		key[k] = g->key[i];
		count[k] = g->count[i];
	}
	free(at);
	free(g->key);
	free(g->count);
	g->key = key;
	g->count = count;
}

static void
g3_count(struct grams3 *g, const unsigned char *p, size_t n)
{
	size_t i;

	g->cap = 1 << 16;
	while (g->cap < n / 4 && g->cap < (1 << 20))
		g->cap <<= 1;
	g->key = xcalloc(g->cap, sizeof *g->key);
	g->count = xcalloc(g->cap, sizeof *g->count);
	g->n = 0;
	for (i = 0; i + FP <= n; i++) {
		uint32_t k = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		    (uint32_t)p[i + 2] << 16 | 1u << 24;
		uint32_t h = g3_hash(k, g->cap);

		while (g->key[h] != 0 && g->key[h] != k)
			h = (h + 1) & (uint32_t)(g->cap - 1);
		if (g->key[h] == 0) {
			if (g->n + 1 >= g->cap / 2)
				break;	/* full enough to judge by */
			g->key[h] = k;
			g->n++;
		}
		g->count[h]++;
	}
	/* packed: the first n slots */
	for (i = 0, g->n = 0; i < g->cap; i++)
		if (g->key[i] != 0) {
			g->key[g->n] = g->key[i];
			g->count[g->n++] = g->count[i];
		}
	g3_group(g);
}

static void
tables_add(struct tables *t, const struct lit *l, size_t w, int b)
{
	size_t j;

	for (j = 0; j < FP; j++) {
		unsigned char c = l->s[w + j];

		t->lo[j][c & 15] |= (uint8_t)(1u << b);
		t->hi[j][c >> 4] |= (uint8_t)(1u << b);
		if (l->icase && isletter(c)) {
			c ^= 0x20;
			t->lo[j][c & 15] |= (uint8_t)(1u << b);
			t->hi[j][c >> 4] |= (uint8_t)(1u << b);
		}
	}
}

static int
accepts(const struct tables *t, size_t j, unsigned char c, int b)
{
	return (t->lo[j][c & 15] & t->hi[j][c >> 4]) >> b & 1;
}

/* The bytes bucket b of t accepts at fingerprint byte j, into a: a high
 * nibble it has, with a low nibble it has. */
static size_t
accepted(const struct tables *t, size_t j, int b, unsigned char *a)
{
	size_t n = 0;
	int hi, lo;

	for (hi = 0; hi < 16; hi++)
		if (t->hi[j][hi] >> b & 1)
			for (lo = 0; lo < 16; lo++)
				if (t->lo[j][lo] >> b & 1)
					a[n++] = (unsigned char)(hi << 4 | lo);
	return n;
}

/* How often bucket b of t stops the scan, per sample: counted on the
 * sample's 3-grams, or, without a sample, guessed from how common each
 * byte is. */
static double
rate(const struct tables *t, int b, const struct grams3 *g)
{
	double r = 1;
	size_t i, j;
	int c;

	if (g != NULL) {
		/* the pairs of first bytes it accepts, then their grams'
		 * third (a sum of whole counts: exact in any order) */
		unsigned char a0[256], a1[256];
		size_t n0 = accepted(t, 0, b, a0), n1 = accepted(t, 1, b, a1), x, y;

		r = 0;
		for (x = 0; x < n0; x++)
			for (y = 0; y < n1; y++) {
				uint32_t pair = (uint32_t)a0[x] | (uint32_t)a1[y] << 8;

				for (i = g->start[pair]; i < g->start[pair + 1]; i++)
					if (accepts(t, 2, g->key[i] >> 16 & 0xff, b))
						r += g->count[i];
			}
		return r;
	}
	for (j = 0; j < FP; j++) {
		double in = 0;

		for (c = 0; c < 256; c++)
			if (accepts(t, j, (unsigned char)c, b))
				in += (double)(1u << (commonness((unsigned char)c) / 3));
		r *= in;
	}
	return r;
}

struct byrate {
	size_t	 lit;
	double	 rate;
};

static int
byrate_cmp(const void *a, const void *b)
{
	const struct byrate *x = a, *y = b;

	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	return x->lit < y->lit ? -1 : x->lit > y->lit;
}

void
litscan_build(struct litscan *ls, const char *sample, size_t n)
{
	struct grams3 g, *gp = NULL;
	struct byrate *order;
	double cur[NBUCKETS];
	size_t i, j, w;
	int b, c;

	memset(&ls->t, 0, sizeof ls->t);
	for (b = 0; b < NBUCKETS; b++) {
		free(ls->bucket[b]);
		ls->bucket[b] = NULL;
		ls->nbucket[b] = 0;
		cur[b] = 0;
	}
	if (sample != NULL && n >= 64) {
		/* a quarter MiB tells the common 3-grams apart well enough */
		g3_count(&g, (const unsigned char *)sample, n < 256 * 1024 ? n : 256 * 1024);
		gp = &g;
	}
	/* each literal's rarest window, alone in a bucket */
	order = xcalloc(ls->nlits + 1, sizeof *order);
	for (i = 0; i < ls->nlits; i++) {
		struct lit *l = &ls->lits[i];

		for (w = 0; w + FP <= l->len; w++) {
			struct tables one;
			double r;

			memset(&one, 0, sizeof one);
			tables_add(&one, l, w, 0);
			r = rate(&one, 0, gp);
			if (w == 0 || r < order[i].rate) {
				order[i].rate = r;
				l->w = w;
			}
		}
		order[i].lit = i;
	}
	/* Most frequent first, each into the bucket it costs least in: a
	 * bucket costs its rate times its literals, each compared at a stop. */
	qsort(order, ls->nlits, sizeof *order, byrate_cmp);
	for (i = 0; i < ls->nlits; i++) {
		struct lit *l = &ls->lits[order[i].lit];
		double best = 0, r[NBUCKETS];
		int bb = 0;

		for (b = 0; b < NBUCKETS; b++) {
			struct tables t = ls->t;
			double k = (double)ls->nbucket[b], inc;

			tables_add(&t, l, l->w, b);
			r[b] = rate(&t, b, gp);
			inc = r[b] * (k + 1) - cur[b] * k;
			if (b == 0 || inc < best) {
				best = inc;
				bb = b;
			}
		}
		tables_add(&ls->t, l, l->w, bb);
		cur[bb] = r[bb];
		ls->bucket[bb] = xrealloc(ls->bucket[bb],
		    (ls->nbucket[bb] + 1) * sizeof *ls->bucket[bb]);
		ls->bucket[bb][ls->nbucket[bb]++] = order[i].lit;
	}
	free(order);
	if (gp != NULL) {
		free(g.key);
		free(g.count);
		free(g.start);
	}
	for (j = 0; j < FP; j++)
		for (c = 0; c < 256; c++)
			ls->byte[j][c] = ls->t.lo[j][c & 15] & ls->t.hi[j][c >> 4];
}

/* --- scanning ---------------------------------------------------------------- */

void
lithits_add(struct lithits *h, size_t start, size_t end, uint32_t target)
{
	struct lithit *x;

	if (h->n == h->cap)
		XGROW(h->v, h->cap, h->n + 1);
	x = &h->v[h->n++];
	x->start = (uint32_t)start;
	x->end = (uint32_t)end;
	x->target = target;
}

static int
same(const struct lit *l, const unsigned char *s, size_t room)
{
	size_t i;

	if (room >= 8 && l->len <= 8) {
		uint64_t x;

		memcpy(&x, s, 8);
		return ((x | l->fold) & l->mask) == l->val;
	}
	for (i = 0; i < l->len; i++) {
		unsigned char c = s[i];

		if (l->icase && c >= 'A' && c <= 'Z')
			c += 32;
		if (c != l->s[i])
			return 0;
	}
	return 1;
}

/* The fingerprint of the literals of buckets `bits` may be at p[pos]. */
static void
verify(const struct litscan *ls, const unsigned char *p, size_t n, size_t pos,
    unsigned bits, struct lithits *out)
{
	while (bits != 0) {
		int b = __builtin_ctz(bits);
		size_t k;

		bits &= bits - 1;
		for (k = 0; k < ls->nbucket[b]; k++) {
			const struct lit *l = &ls->lits[ls->bucket[b][k]];
			size_t start = pos - l->w;

			if (pos >= l->w && start + l->len <= n && same(l, p + start, n - start))
				lithits_add(out, start, start + l->len, l->target);
		}
	}
}

static void
scan_scalar(const struct litscan *ls, const unsigned char *p, size_t n,
    size_t from, struct lithits *out)
{
	size_t i;

	for (i = from; i + FP <= n; i++) {
		unsigned m = ls->byte[0][p[i]] & ls->byte[1][p[i + 1]] &
		    ls->byte[2][p[i + 2]];

		if (m != 0)
			verify(ls, p, n, i, m, out);
	}
}

#ifdef HAVE_TEDDY
#define NIB(tab, x) _mm256_and_si256(						\
	_mm256_shuffle_epi8((tab##lo), _mm256_and_si256((x), nib)),		\
	_mm256_shuffle_epi8((tab##hi), _mm256_and_si256(_mm256_srli_epi16((x), 4), nib)))

/* 32 positions at a time; returns where the scalar scan takes over. */
__attribute__((target("avx2")))
static size_t
scan_avx2(const struct litscan *ls, const unsigned char *p, size_t n,
    struct lithits *out)
{
	const __m256i nib = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
	__m256i t0lo, t0hi, t1lo, t1hi, t2lo, t2hi;
	size_t i;

#define TAB(v, a) v = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(a)))
	TAB(t0lo, ls->t.lo[0]);
	TAB(t0hi, ls->t.hi[0]);
	TAB(t1lo, ls->t.lo[1]);
	TAB(t1hi, ls->t.hi[1]);
	TAB(t2lo, ls->t.lo[2]);
	TAB(t2hi, ls->t.hi[2]);
#undef TAB
	for (i = 0; i + 32 + FP - 1 <= n; i += 32) {
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(p + i + 2));
		__m256i m = _mm256_and_si256(_mm256_and_si256(NIB(t0, x0), NIB(t1, x1)),
		    NIB(t2, x2));
		uint32_t bits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero));

		if (bits != 0) {
			uint8_t mb[32];

			_mm256_storeu_si256((__m256i *)mb, m);
			do {
				int k = __builtin_ctz(bits);

				bits &= bits - 1;
				verify(ls, p, n, i + (size_t)k, mb[k], out);
			} while (bits != 0);
		}
	}
	return i;
}
#undef NIB
#endif

void
litscan_scan(const struct litscan *ls, const char *text, size_t n,
    struct lithits *out)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t from = 0;

	if (ls->nlits == 0)
		return;
#ifdef HAVE_TEDDY
	if (!force_scalar && __builtin_cpu_supports("avx2"))
		from = scan_avx2(ls, p, n, out);
#endif
	scan_scalar(ls, p, n, from, out);
}

void
litscan_force_scalar(int scalar)
{
	force_scalar = scalar;
}
