/* matcher.c: literal prefilter + PCRE2 JIT.
 * The scan loop is the hottest code in rankwatch: keep it branch-light. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "litscan.h"
#include "matcher.h"
#include "xmalloc.h"

#define GRAM_BITS	16
#define GRAM_SIZE	(1u << GRAM_BITS)
#define HASH_BITS	12
#define MAX_STEP	8

struct frag {
	unsigned char	*s;	/* folded: | 0x20 */
	char		*orig;	/* as written */
	size_t		 len;
	size_t		 sig;
	size_t		 win;	/* first of the `step` gram offsets indexed */
	int		 star;	/* has '*', which folds like '\n' */
};

struct gram {
	uint32_t	 key;
	uint32_t	 frag;
	uint32_t	 off;
	int32_t		 next;	/* chain in the hash, -1 */
};

struct matcher {
	const struct rulebook	*rb;
	struct frag		*frags;
	size_t			 nfrags;
	struct gram		*grams;
	size_t			 ngrams;
	int32_t			 heads[1u << HASH_BITS];
	uint64_t		 bitmap[GRAM_SIZE / 64];
	uint64_t		 pairs[GRAM_SIZE / 64];	/* 8-byte windows around each gram */
	int			 unpaired;	/* a gram has none: pairs says nothing */
	size_t			 nreq;		/* distinct requires lists */
	size_t			 nbyreq;	/* signatures with byreq set */
	int			*reqof;		/* per signature: its list, -1 */
	unsigned char		*reqseen;	/* per list, this line: 1 = one occurs */
	unsigned char		*reqall;	/* per list: 1 = cannot be searched */
	unsigned char		*byreq;		/* per signature: 1 = looked for by its
						 * requires list, not its literals */
	struct litscan		*lits;		/* short fragments, requires literals */
	size_t			 nshorts;
	const char		*blk;		/* the block scanned last */
	size_t			 blklen, blkpos;
	struct lithits		 bgram, blit;	/* its hits */
	size_t			 bgcur, blcur;
	struct lithits		 lgram, llit;	/* hits of a line outside it */
	size_t			*always;	/* signatures with no fragment */
	size_t			 nalways;
	size_t			*bylevel;	/* signatures run by the line's level */
	size_t			 nbylevel;
	size_t			 had_cand;	/* the last line's prefilter candidates */
	int			 step;
	unsigned char		*cand;		/* per signature: 1 = run */
	size_t			*candlist;
	size_t			 ncand;
	uint32_t		*failed;	/* the last line's candidates that did not match */
	size_t			 nfailed;
	pcre2_code		**partial;	/* per signature: its copy JIT-compiled for
						 * partial matches, made when first asked */
	pcre2_match_data	*md;
	pcre2_match_context	*mctx;
	pcre2_jit_stack		*jstack;
	const struct signature	*err_sig;
	int			 err_code;
	const struct matcher	*base;		/* a clone's: whose tables it reads */
	unsigned		 maxgroups;
};

static inline uint32_t
fold4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v | 0x20202020u;
}

_Static_assert(MATCHER_LONG_FRAG >= 8, "grams_at compares long fragments 8 bytes at a time");

#define FOLD8	0x2020202020202020ull

static inline uint64_t
load8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t
gram_hash(uint32_t k, unsigned bits)
{
	return (k * 0x9E3779B1u) >> (32 - bits);
}

/* The second look at a gram the bitmap let through: most such grams are
 * common words ("loss", "step") that a fragment shares with every
 * progress line. A fragment that holds the gram at offset j also holds
 * the 8 bytes from j (when it goes on 4 more) or from j - 4 (when 4 come
 * before): m->pairs marks every such 8-byte window of every gram, so a
 * text position where neither window is marked starts no fragment. */
static inline uint32_t
pair_hash(uint64_t v)
{
	return (uint32_t)(((v | FOLD8) * 0x9E3779B97F4A7C15ull) >> (64 - GRAM_BITS));
}

static void
pair_set(struct matcher *m, const unsigned char *p)
{
	uint32_t h = pair_hash(load8(p));

	m->pairs[h >> 6] |= 1ull << (h & 63);
}

static inline int
pair_may(const struct matcher *m, const unsigned char *t, size_t n, size_t i)
{
	uint32_t h;

	if (m->unpaired || i < 4 || i + 8 > n)
		return 1;
	h = pair_hash(load8(t + i));
	if (m->pairs[h >> 6] >> (h & 63) & 1)
		return 1;
	h = pair_hash(load8(t + i - 4));
	return m->pairs[h >> 6] >> (h & 63) & 1;
}

/* --- fragment extraction ------------------------------------------------ */

static int
is_quant(char c)
{
	return c == '?' || c == '*' || c == '+' || c == '{';
}

/* Skip a group or class starting at p[i]; returns index after it. */
/* Does an inline option group anywhere in the pattern turn flag f on
 * ("(?i)", "(?s)(?i)", "a(?ix)b", "(?i:...)")? Then the prefilter must
 * assume it holds for the whole pattern: case-insensitive literals, or no
 * literals at all in extended mode, where a space is no longer text. */
static int
inline_flag(const char *pattern, char f)
{
	const char *p = pattern;

	while ((p = strstr(p, "(?")) != NULL) {
		const char *q = p + 2;
		int on = 1;

		if (p > pattern && p[-1] == '\\') {
			p += 2;
			continue;
		}
		for (; (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '-' ||
		    *q == '^'; q++) {
			if (*q == '-')
				on = 0;
			else if (*q == f && on)
				return 1;
		}
		p += 2;
	}
	return 0;
}

/* At p[i] == '[' inside a class: where a POSIX class such as "[:digit:]"
 * ends (its last ']'), or i when it is not one. The rule is PCRE2's
 * (check_posix_syntax): the "[:" needs its ":]" before any other ']' or
 * "[:", else the '[' is a plain character of the class. */
static size_t
posix_class_end(const char *p, size_t n, size_t i)
{
	char t;
	size_t j;

	if (i + 1 >= n || (p[i + 1] != ':' && p[i + 1] != '.' && p[i + 1] != '='))
		return i;
	t = p[i + 1];
	for (j = i + 2; j < n; j++) {
		if (p[j] == '\\' && j + 1 < n && (p[j + 1] == ']' || p[j + 1] == '\\'))
			j++;
		else if ((p[j] == '[' && j + 1 < n && p[j + 1] == t) || p[j] == ']')
			return i;
		else if (p[j] == t && j + 1 < n && p[j + 1] == ']')
			return j + 1;
	}
	return i;
}

static size_t
skip_group(const char *p, size_t n, size_t i)
{
	int depth = 0;

	while (i < n) {
		if (p[i] == '\\') {
			i += 2;
			continue;
		}
		if (p[i] == '[') {
			i++;
			if (i < n && p[i] == '^')
				i++;
			if (i < n && p[i] == ']')
				i++;
			while (i < n && p[i] != ']') {
				if (p[i] == '\\')
					i++;
				else if (p[i] == '[')
					i = posix_class_end(p, n, i);
				i++;
			}
			i++;
			if (depth == 0)
				return i;
			continue;
		}
		if (p[i] == '(')
			depth++;
		else if (p[i] == ')') {
			if (--depth == 0)
				return i + 1;
		}
		i++;
	}
	return n;
}

/* Does the quantifier at p[i] allow zero repetitions? */
static int
quant_optional(const char *p, size_t n, size_t i)
{
	if (i >= n)
		return 0;
	if (p[i] == '?' || p[i] == '*')
		return 1;
	if (p[i] == '{')
		return i + 1 < n && p[i + 1] == '0';
	return 0;
}

/* Longest required literal of one top-level branch p[0..n). */
static char *
branch_literal(const char *p, size_t n)
{
	char best[256], cur[256];
	size_t bl = 0, cl = 0, i = 0;

#define FLUSH() do { if (cl > bl) { memcpy(best, cur, cl); bl = cl; } cl = 0; } while (0)
	while (i < n) {
		char c = p[i];
		int lit = 0;
		char ch = 0;
		size_t adv = 1;

		if (is_quant(c)) {
			/* quantifier of a non-literal atom */
			FLUSH();
			if (c == '{')
				while (i < n && p[i] != '}')
					i++;
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < n) {
			char e = p[i + 1];

			adv = 2;
			if (!((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') ||
			    (e >= '0' && e <= '9'))) {
				lit = 1;
				ch = e;
			}
		} else if (c == '(' || c == '[') {
			size_t j = skip_group(p, n, i);

			FLUSH();
			i = j;
			/* A quantifier after a group or class: skip it too. */
			while (i < n && is_quant(p[i])) {
				if (p[i] == '{')
					while (i < n && p[i] != '}')
						i++;
				i++;
			}
			continue;
		} else if (c == '.' || c == '^' || c == '$' || c == '|' || c == ')') {
			FLUSH();
			i++;
			continue;
		} else {
			lit = 1;
			ch = c;
		}
		if (!lit) {
			FLUSH();
			i += adv;
			continue;
		}
		if (quant_optional(p, n, i + adv)) {
			FLUSH();
			i += adv;
			continue;
		}
		if (cl < sizeof cur)
			cur[cl++] = ch;
		i += adv;
		if (i < n && is_quant(p[i])) {
			/* required once; the run ends here */
			FLUSH();
			while (i < n && is_quant(p[i])) {
				if (p[i] == '{')
					while (i < n && p[i] != '}')
						i++;
				i++;
			}
		}
	}
	FLUSH();
#undef FLUSH
	return bl >= 4 ? xstrndup(best, bl) : NULL;
}

size_t
matcher_fragments(const char *pattern, char ***out)
{
	const char *p = pattern;
	size_t n = strlen(p), i, start, count = 0;
	char **v = NULL;
	size_t cap = 0;
	int depth = 0;

	*out = NULL;
	/* Leading option settings "(?i)"; extended mode defeats extraction. */
	while (n >= 3 && p[0] == '(' && p[1] == '?') {
		size_t j = 2;

		while (j < n && ((p[j] >= 'a' && p[j] <= 'z') || p[j] == '-'))
			j++;
		if (j >= n || p[j] != ')')
			break;
		if (memchr(p + 2, 'x', j - 2) != NULL)
			return 0;
		p += j + 1;
		n -= j + 1;
	}
	if (inline_flag(pattern, 'x') || strstr(pattern, "\\Q") != NULL)
		return 0;
	for (i = start = 0; i <= n; i++) {
		if (i < n && p[i] == '\\') {
			i++;
			continue;
		}
		if (i < n && p[i] == '[') {
			i = skip_group(p, n, i) - 1;
			continue;
		}
		if (i < n && p[i] == '(')
			depth++;
		else if (i < n && p[i] == ')')
			depth--;
		if (i == n || (p[i] == '|' && depth == 0)) {
			char *lit = branch_literal(p + start, i - start);

			if (lit == NULL) {
				while (count > 0)
					free(v[--count]);
				free(v);
				return 0;
			}
			XGROW(v, cap, count + 1);
			v[count++] = lit;
			start = i + 1;
		}
	}
	*out = v;
	return count;
}

/* --- building ----------------------------------------------------------- */

/* (Re)build the gram index: each long fragment contributes the grams at
 * offsets win .. win + step - 1. Any `step` consecutive offsets find every
 * occurrence (the scan visits one position in each residue class), so the
 * window can be chosen where the grams are rare (matcher_tune). */
static void
index_grams(struct matcher *m)
{
	size_t i, j, gcap = 0;

	free(m->grams);
	m->grams = NULL;
	m->ngrams = 0;
	memset(m->bitmap, 0, sizeof m->bitmap);
	memset(m->pairs, 0, sizeof m->pairs);
	m->unpaired = 0;
	for (i = 0; i < (1u << HASH_BITS); i++)
		m->heads[i] = -1;
	for (i = 0; i < m->nfrags; i++) {
		struct frag *f = &m->frags[i];

		if (f->win + (size_t)m->step + 3 > f->len)
			f->win = 0;
		for (j = f->win; j < f->win + (size_t)m->step && j + 4 <= f->len; j++) {
			struct gram *g;
			uint32_t k = fold4(f->s + j), h;

			XGROW(m->grams, gcap, m->ngrams + 1);
			g = &m->grams[m->ngrams];
			g->key = k;
			g->frag = (uint32_t)i;
			g->off = (uint32_t)j;
			h = gram_hash(k, HASH_BITS);
			g->next = m->heads[h];
			m->heads[h] = (int32_t)m->ngrams++;
			h = gram_hash(k, GRAM_BITS);
			m->bitmap[h >> 6] |= 1ull << (h & 63);
			if (j + 8 <= f->len)
				pair_set(m, f->s + j);
			if (j >= 4)
				pair_set(m, f->s + j - 4);
			if (j + 8 > f->len && j < 4)
				m->unpaired = 1;
		}
	}
}

/* Fragments of MATCHER_LONG_FRAG bytes or more go into the gram table,
 * folded (| 0x20); the sampling stride is set by the shortest of them (a
 * fragment of L bytes allows a stride of L - 3). Shorter fragments would
 * make the stride small for every line: they go to the litscan, which
 * looks for all of them in one pass. */
static void
add_frag(struct matcher *m, const char *lit, size_t sig, int icase, size_t *cap)
{
	struct frag *f;
	size_t i, len = strlen(lit);

	if (len < 4)
		return;
	if (len < MATCHER_LONG_FRAG) {
		litscan_add(m->lits, lit, len, icase, (uint32_t)sig);
		m->nshorts++;
		return;
	}
	XGROW(m->frags, *cap, m->nfrags + 1);
	f = &m->frags[m->nfrags++];
	f->len = len;
	f->sig = sig;
	f->win = 0;	/* matcher_tune may choose a rarer window */
	f->s = xmalloc(len + 1);
	for (i = 0; i < len; i++)
		f->s[i] = (unsigned char)lit[i] | 0x20;
	f->s[len] = 0;
	f->orig = xstrdup(lit);
	f->star = memchr(f->s, '*', len) != NULL;
}

/* What matching one line writes: a clone has its own. */
static void
scratch_new(struct matcher *m)
{
	m->reqseen = xmalloc(m->nreq + 1);
	m->cand = xcalloc(m->rb->nsigs + 1, 1);
	m->candlist = xcalloc(m->rb->nsigs + 1, sizeof *m->candlist);
	m->failed = xcalloc(m->rb->nsigs + 1, sizeof *m->failed);
	m->partial = xcalloc(m->rb->nsigs + 1, sizeof *m->partial);
	m->md = pcre2_match_data_create(m->maxgroups + 1, NULL);
	m->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(m->mctx, 200000);
	pcre2_set_depth_limit(m->mctx, 5000);
	pcre2_set_heap_limit(m->mctx, 8192);	/* KiB */
	m->jstack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, NULL);
	if (m->jstack != NULL)
		pcre2_jit_stack_assign(m->mctx, NULL, m->jstack);
}

/* The literals a signature is looked for by (its prefilter list, or else
 * its pattern's fragments), each allocated; 0 when it has none (a
 * prefilter literal under 4 bytes: it runs on every line). */
static size_t
sig_literals(const struct signature *s, char ***out)
{
	size_t j;

	*out = NULL;
	if (s->prefilter.n == 0)
		return matcher_fragments(s->pattern, out);
	for (j = 0; j < s->prefilter.n; j++)
		if (strlen(s->prefilter.v[j]) < 4)
			return 0;
	*out = xcalloc(s->prefilter.n, sizeof **out);
	for (j = 0; j < s->prefilter.n; j++)
		(*out)[j] = xstrdup(s->prefilter.v[j]);
	return s->prefilter.n;
}

static void
free_literals(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

static int
sig_icase(const struct signature *s)
{
	uint32_t opts = 0;

	pcre2_pattern_info(s->re, PCRE2_INFO_ALLOPTIONS, &opts);
	return (opts & PCRE2_CASELESS) != 0 || inline_flag(s->pattern, 'i');
}

/* Requires lists, shared between signatures that have the same one. */
static void
group_requires(struct matcher *m)
{
	const struct rulebook *rb = m->rb;
	size_t i, g, k;

	m->reqof = xmalloc(sizeof *m->reqof * (rb->nsigs + 1));
	m->reqall = xcalloc(rb->nsigs + 1, 1);
	for (i = 0; i < rb->nsigs; i++) {
		const struct strlist *r = &rb->sigs[i]->requires;

		m->reqof[i] = -1;
		if (r->n == 0)
			continue;
		for (g = 0; g < i; g++) {
			const struct strlist *o = &rb->sigs[g]->requires;

			if (o->n != r->n || m->reqof[g] < 0)
				continue;
			for (k = 0; k < r->n && strcmp(o->v[k], r->v[k]) == 0; k++)
				;
			if (k == r->n)
				break;
		}
		if (g < i) {
			m->reqof[i] = m->reqof[g];
			continue;
		}
		m->reqof[i] = (int)m->nreq;
		for (k = 0; k < r->n; k++)
			/* too short to look for: the list cannot rule a line out */
			if (strlen(r->v[k]) < 3)
				m->reqall[m->nreq] = 1;
		m->nreq++;
	}
}

/* (Re)build the prefilter's tables: every signature's literals (or, for
 * one looked for by its requires list, none), the stride, the grams, the
 * litscan with the requires lists' literals as target nsigs + list, and
 * the signatures that run on every line. */
static void
build_prefilter(struct matcher *m)
{
	const struct rulebook *rb = m->rb;
	size_t i, j, fcap = 0, minlen = MAX_STEP + 3;

	for (i = 0; i < m->nfrags; i++) {
		free(m->frags[i].s);
		free(m->frags[i].orig);
	}
	free(m->frags);
	m->frags = NULL;
	m->nfrags = m->nshorts = m->nalways = 0;
	litscan_free(m->lits);
	m->lits = litscan_new();
	memset(m->always, 0, sizeof *m->always * (rb->nsigs + 1));
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		char **lits;
		size_t nl, before = m->nfrags + m->nshorts;
		int icase;

		if (s->re == NULL)
			continue;
		if (m->byreq[i] || s->level != 0) {
			m->always[i] = 1;	/* has a trigger: not unfiltered */
			continue;
		}
		icase = sig_icase(s);
		nl = sig_literals(s, &lits);
		for (j = 0; j < nl; j++)
			add_frag(m, lits[j], i, icase, &fcap);
		free_literals(lits, nl);
		m->always[i] = m->nfrags + m->nshorts > before;
	}
	for (i = 0; i < m->nfrags; i++)
		if (m->frags[i].len < minlen)
			minlen = m->frags[i].len;
	m->step = (int)(minlen - 3);
	if (m->step > MAX_STEP)
		m->step = MAX_STEP;
	if (m->step < 1)
		m->step = 1;
	index_grams(m);
	memset(m->reqseen, 0, m->nreq + 1);
	for (i = 0; i < rb->nsigs; i++) {
		const struct strlist *r = &rb->sigs[i]->requires;
		int g = m->reqof[i];

		/* each list once: by the first signature that has it */
		if (g < 0 || m->reqseen[g])
			continue;
		m->reqseen[g] = 1;
		for (j = 0; j < r->n; j++)
			litscan_add(m->lits, r->v[j], strlen(r->v[j]), 1,
			    (uint32_t)(rb->nsigs + (size_t)g));
	}
	memset(m->reqseen, 0, m->nreq + 1);
	litscan_build(m->lits, NULL, 0);
	/* m->always: 1 = has a trigger, until it lists those without */
	for (i = 0, j = 0; i < rb->nsigs; i++)
		if (!m->always[i] && rb->sigs[i]->re != NULL)
			m->always[j++] = i;
	m->nalways = j;
	for (i = 0, j = 0; i < rb->nsigs; i++)
		if (rb->sigs[i]->level != 0 && rb->sigs[i]->re != NULL)
			m->bylevel[j++] = i;
	m->nbylevel = j;
}

struct matcher *
matcher_new(const struct rulebook *rb)
{
	struct matcher *m = xcalloc(1, sizeof *m);
	size_t i;
	unsigned maxgroups = 0;

	m->rb = rb;
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];

		if (s->re == NULL)
			continue;
		if (s->ngroups > maxgroups)
			maxgroups = s->ngroups;
		pcre2_jit_compile(s->re, PCRE2_JIT_COMPLETE);
	}
	for (i = 0; i < (1u << HASH_BITS); i++)
		m->heads[i] = -1;
	group_requires(m);
	m->byreq = xcalloc(rb->nsigs + 1, 1);
	m->always = xcalloc(rb->nsigs + 1, sizeof *m->always);
	m->bylevel = xcalloc(rb->nsigs + 1, sizeof *m->bylevel);
	m->maxgroups = maxgroups;
	scratch_new(m);
	build_prefilter(m);
	return m;
}

struct matcher *
matcher_clone(const struct matcher *base)
{
	struct matcher *m = xmalloc(sizeof *m);

	memcpy(m, base, sizeof *m);
	m->base = base;
	m->blk = NULL;
	m->blklen = m->blkpos = 0;
	memset(&m->bgram, 0, sizeof m->bgram);
	memset(&m->blit, 0, sizeof m->blit);
	memset(&m->lgram, 0, sizeof m->lgram);
	memset(&m->llit, 0, sizeof m->llit);
	m->bgcur = m->blcur = 0;
	m->had_cand = 0;
	m->ncand = 0;
	m->err_sig = NULL;
	m->err_code = 0;
	scratch_new(m);
	return m;
}

void
matcher_free(struct matcher *m)
{
	size_t i;

	if (m == NULL)
		return;
	free(m->reqseen);
	free(m->bgram.v);
	free(m->blit.v);
	free(m->lgram.v);
	free(m->llit.v);
	if (m->base == NULL) {	/* the tables are the original's */
		for (i = 0; i < m->nfrags; i++) {
			free(m->frags[i].s);
			free(m->frags[i].orig);
		}
		free(m->frags);
		litscan_free(m->lits);
		free(m->reqof);
		free(m->reqall);
		free(m->byreq);
		free(m->grams);
		free(m->always);
		free(m->bylevel);
	}
	free(m->cand);
	free(m->candlist);
	free(m->failed);
	for (i = 0; i < m->rb->nsigs; i++)
		pcre2_code_free(m->partial[i]);
	free(m->partial);
	pcre2_match_data_free(m->md);
	pcre2_match_context_free(m->mctx);
	if (m->jstack != NULL)
		pcre2_jit_stack_free(m->jstack);
	free(m);
}

/* A signature with a requires list matches only a line that holds one
 * of the list's literals and one of its own: either set can make the
 * line a candidate, and the regex checks the rest. Look for it by the set
 * that is rarer in the sample (its own on a tie: "loss" is on every line
 * of a training log, ": nan" on few). Returns whether any signature
 * changed sets. */
static int
by_rarer(struct matcher *m, const char *sample, size_t n)
{
	const struct rulebook *rb = m->rb;
	struct litscan *ls = litscan_new();
	struct lithits h = { NULL, 0, 0 };
	unsigned long *count = xcalloc(2 * rb->nsigs + 1, sizeof *count);
	unsigned char *none = xcalloc(rb->nsigs + 1, 1);
	size_t i, j, nl;
	int changed = 0;

	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		char **lits;

		if (s->re == NULL || m->reqof[i] < 0 || m->reqall[m->reqof[i]])
			continue;
		nl = sig_literals(s, &lits);
		for (j = 0; j < nl; j++)
			litscan_add(ls, lits[j], strlen(lits[j]), sig_icase(s), (uint32_t)(2 * i));
		none[i] = nl == 0;	/* runs on every line now */
		free_literals(lits, nl);
		for (j = 0; j < s->requires.n; j++)
			litscan_add(ls, s->requires.v[j], strlen(s->requires.v[j]), 1,
			    (uint32_t)(2 * i + 1));
	}
	if (litscan_count(ls) > 0) {
		litscan_build(ls, sample, n);
		litscan_scan(ls, sample, n, &h);
		for (i = 0; i < h.n; i++)
			count[h.v[i].target]++;
	}
	m->nbyreq = 0;
	for (i = 0; i < rb->nsigs; i++) {
		int by = m->reqof[i] >= 0 && rb->sigs[i]->re != NULL && !m->reqall[m->reqof[i]] &&
		    (none[i] || count[2 * i + 1] < count[2 * i]);

		changed |= by != m->byreq[i];
		m->byreq[i] = (unsigned char)by;
		m->nbyreq += (size_t)by;
	}
	free(h.v);
	free(count);
	free(none);
	litscan_free(ls);
	return changed;
}

void
matcher_tune(struct matcher *m, const char *sample, size_t n)
{
	uint16_t *count;
	size_t i, j, w;

	if (n < 64)
		return;
	if (by_rarer(m, sample, n))
		build_prefilter(m);
	/* how often each (hashed, folded) 4-gram occurs */
	count = xcalloc(GRAM_SIZE, sizeof *count);
	for (i = 0; i + 4 <= n; i++) {
		uint32_t h = gram_hash(fold4((const unsigned char *)sample + i), GRAM_BITS);

		if (count[h] < UINT16_MAX)
			count[h]++;
	}
	/* long fragments: the window of `step` offsets with the rarest grams */
	for (i = 0; i < m->nfrags; i++) {
		struct frag *f = &m->frags[i];
		uint64_t best = UINT64_MAX;

		for (w = 0; w + (size_t)m->step + 3 <= f->len; w++) {
			uint64_t sum = 0;

			for (j = w; j < w + (size_t)m->step; j++)
				sum += count[gram_hash(fold4(f->s + j), GRAM_BITS)];
			if (sum < best) {
				best = sum;
				f->win = w;
			}
		}
	}
	/* short fragments: the rarest 3-byte windows in this run's logs */
	litscan_build(m->lits, sample, n);
	free(count);
	index_grams(m);
}

size_t
matcher_short_fragments(const struct matcher *m)
{
	return m->nshorts;
}

size_t
matcher_unfiltered(const struct matcher *m)
{
	return m->nalways;
}

int
matcher_step(const struct matcher *m)
{
	return m->step;
}

const struct signature *
matcher_shortest(const struct matcher *m, const char **lit, size_t *len)
{
	size_t i, best = 0;

	if (m->nfrags == 0)
		return NULL;
	for (i = 1; i < m->nfrags; i++)
		if (m->frags[i].len < m->frags[best].len)
			best = i;
	*lit = m->frags[best].orig;
	*len = m->frags[best].len;
	return m->rb->sigs[m->frags[best].sig];
}

const struct signature *
matcher_take_error(struct matcher *m, int *code)
{
	const struct signature *s = m->err_sig;

	*code = m->err_code;
	m->err_sig = NULL;
	return s;
}

/* --- matching -------------------------------------------------------------- */

/* The occurrences of long fragments whose gram k is at t[i]. */
static void
grams_at(const struct matcher *m, const unsigned char *t, size_t n, size_t i,
    uint32_t k, struct lithits *out)
{
	int32_t gi;

	for (gi = m->heads[gram_hash(k, HASH_BITS)]; gi >= 0; gi = m->grams[gi].next) {
		const struct gram *g = &m->grams[gi];
		const struct frag *f = &m->frags[g->frag];
		size_t start, j;

		if (g->key != k || i < g->off || i - g->off + f->len > n)
			continue;
		start = i - g->off;
		/* 8 bytes at a time, folded; the last 8 overlap (len >= 8) */
		for (j = 0; j + 8 < f->len; j += 8)
			if ((load8(t + start + j) | FOLD8) != load8(f->s + j))
				break;
		if (j + 8 < f->len ||
		    (load8(t + start + f->len - 8) | FOLD8) != load8(f->s + f->len - 8))
			continue;
		/* folded, '\n' reads as '*': never across lines */
		if (f->star && memchr(t + start, '\n', f->len) != NULL)
			continue;
		lithits_add(out, start, start + f->len, (uint32_t)f->sig);
	}
}

/* The gram scan: every occurrence of a long fragment in t[0..n), in the
 * order of the scan positions (each inside its occurrence). */
static void
scan_grams(const struct matcher *m, const unsigned char *t, size_t n,
    struct lithits *out)
{
	const size_t step = (size_t)m->step;
	size_t i;

	if (m->nfrags == 0 || n < 4)
		return;
	/* one probe every step bytes; a bitmap hit is rare (5% of the
	 * probes on bench/genrun.py's 1 GiB run) and predicted as a miss,
	 * which beats collecting 64 probes' hits in a mask */
	for (i = 0; i <= n - 4; i += step) {
		uint32_t k = fold4(t + i), h = gram_hash(k, GRAM_BITS);

		if (__builtin_expect(m->bitmap[h >> 6] >> (h & 63) & 1, 0) && pair_may(m, t, n, i))
			grams_at(m, t, n, i, k, out);
	}
}

void
matcher_scan(struct matcher *m, const char *block, size_t n)
{
	m->blk = block;
	m->blklen = block != NULL && n < UINT32_MAX ? n : 0;
	m->blkpos = 0;
	m->bgram.n = m->blit.n = 0;
	m->bgcur = m->blcur = 0;
	if (m->blklen == 0) {
		m->blk = NULL;
		return;
	}
	scan_grams(m, (const unsigned char *)block, n, &m->bgram);
	litscan_scan(m->lits, block, n, &m->blit);
}

/* A literal of requires list g is in the line: the signatures looked
 * for by it are candidates. */
static void
by_requires(struct matcher *m, uint32_t g)
{
	size_t i;

	for (i = 0; i < m->rb->nsigs; i++)
		if (m->byreq[i] && m->reqof[i] == (int)g && !m->cand[i]) {
			m->cand[i] = 1;
			m->candlist[m->ncand++] = i;
		}
}

/* The hits of h from *cur on that lie in [off, end): candidates, or
 * requires lists seen. */
static void
take_hits(struct matcher *m, const struct lithits *h, size_t *cur, size_t off,
    size_t end)
{
	const uint32_t nsigs = (uint32_t)m->rb->nsigs;

	for (; *cur < h->n && h->v[*cur].start < end; (*cur)++) {
		const struct lithit *x = &h->v[*cur];

		if (x->start < off || x->end > end)
			continue;
		if (x->target >= nsigs) {
			m->reqseen[x->target - nsigs] = 1;
			if (m->nbyreq > 0)
				by_requires(m, x->target - nsigs);
		} else if (!m->cand[x->target]) {
			m->cand[x->target] = 1;
			m->candlist[m->ncand++] = x->target;
		}
	}
}

static int
run_one(struct matcher *m, size_t si, const char *msg, size_t msglen,
    match_fn fn, void *arg)
{
	const struct signature *s = m->rb->sigs[si];
	int rc, g = m->reqof[si];

	if (g >= 0 && !m->reqseen[g] && !m->reqall[g])
		return 0;
	rc = pcre2_match(s->re, (PCRE2_SPTR)msg, msglen, 0, 0, m->md, m->mctx);
	if (rc >= 0) {
		fn(arg, s, msg, pcre2_get_ovector_pointer(m->md));
		return 1;
	}
	if (rc != PCRE2_ERROR_NOMATCH && m->err_sig == NULL) {
		m->err_sig = s;
		m->err_code = rc;
	}
	return 0;
}

/* Does a signature of level lv run on a line of level sev? */
static int
level_has(char lv, char sev)
{
	return sev == 'F' || (lv == 'E' && sev == 'E');
}

int
matcher_match(struct matcher *m, const char *line, size_t linelen,
    const char *msg, size_t msglen, char sev, int ranked, match_fn fn, void *arg)
{
	struct lithits *gram, *lit;
	size_t j, found = 0, read = 0, off = 0, end = linelen, gcur = 0, lcur = 0;
	/* signatures run on every line, and on this line for its level */
	size_t always = m->nalways + (sev == 'E' || sev == 'F' ? m->nbylevel : 0);
	int pass;
	size_t *gc = &gcur, *lc = &lcur;

	m->ncand = 0;
	m->had_cand = 0;
	m->nfailed = 0;
	if (m->blk != NULL && line >= m->blk && linelen <= m->blklen &&
	    (size_t)(line - m->blk) <= m->blklen - linelen &&
	    (size_t)(line - m->blk) >= m->blkpos) {
		/* inside the block scanned last, after the lines before */
		off = (size_t)(line - m->blk);
		end = off + linelen;
		m->blkpos = end;
		gram = &m->bgram;
		lit = &m->blit;
		gc = &m->bgcur;
		lc = &m->blcur;
		/* most lines: no hit before the next line */
		if (always == 0 && (*gc == gram->n || gram->v[*gc].start >= end) &&
		    (*lc == lit->n || lit->v[*lc].start >= end))
			return 0;
	} else {
		/* any other line is a block of its own */
		gram = &m->lgram;
		lit = &m->llit;
		gram->n = lit->n = 0;
		scan_grams(m, (const unsigned char *)line, linelen, gram);
		litscan_scan(m->lits, line, linelen, lit);
	}
	if (m->nreq > 0)
		memset(m->reqseen, 0, m->nreq);
	take_hits(m, gram, gc, off, end);
	take_hits(m, lit, lc, off, end);
	m->had_cand = m->ncand;
	if (m->ncand == 0 && always == 0)
		return 0;
	/* Signatures in rulebook order, so results never depend on hashing. */
	for (j = 0; j < m->nalways; j++)
		if (!m->cand[m->always[j]])
			m->candlist[m->ncand++] = m->always[j];
	for (j = 0; always > m->nalways && j < m->nbylevel; j++) {
		const struct signature *s = m->rb->sigs[m->bylevel[j]];

		if (level_has(s->level, sev) && !m->cand[s->index])
			m->candlist[m->ncand++] = s->index;
	}
	/* a handful of candidates: insertion sort */
	for (j = 1; j < m->ncand; j++) {
		size_t x = m->candlist[j], k = j;

		while (k > 0 && m->candlist[k - 1] > x) {
			m->candlist[k] = m->candlist[k - 1];
			k--;
		}
		m->candlist[k] = x;
	}
	/* a fallback signature runs after the others, and only when none
	 * of them read the line (pass 1); one run by the line's level (the
	 * catch-all of an error no entry reads) after every other one (pass
	 * 2). A context or progress signature's match is no reading: torch_npu's
	 * "[ERROR] ... (PID:N, Device:D, RankID:R) ERR00100 ..." lends its
	 * rank and is still an error no entry names. */
	for (pass = 0; pass < 3; pass++)
		for (j = 0; j < m->ncand; j++) {
			size_t si = m->candlist[j];
			const struct signature *s = m->rb->sigs[si];

			if ((s->fallback ? 1 + (s->level != 0) : 0) != pass)
				continue;
			if ((pass > 0 && read > 0) || (ranked && s->unranked))
				m->cand[si] = 0;	/* (no match: not asked to go on) */
			else if (run_one(m, si, msg, msglen, fn, arg)) {
				found++;
				if (s->role != ROLE_CONTEXT && s->role != ROLE_PROGRESS)
					read++;
			} else if (m->cand[si])	/* (a prefilter's candidate, not one run always) */
				m->failed[m->nfailed++] = (uint32_t)si;
			m->cand[si] = 0;
		}
	m->ncand = 0;
	return (int)found;
}

const struct rulebook *
matcher_rulebook(const struct matcher *m)
{
	return m->rb;
}

size_t
matcher_had_candidates(const struct matcher *m)
{
	return m->had_cand;
}

size_t
matcher_failed(const struct matcher *m, const uint32_t **sigs)
{
	*sigs = m->failed;
	return m->nfailed;
}

/* The rulebook's code is compiled for whole matches, and shared by every
 * thread: this matcher's copy of signature si's, compiled once for
 * partial ones (else PCRE2 would interpret each, 4 times the
 * instructions; and does, when the copy cannot be made). */
static const pcre2_code *
partial_code(struct matcher *m, uint32_t si)
{
	pcre2_code **part = &m->partial[si];

	if (*part == NULL && (*part = pcre2_code_copy(m->rb->sigs[si]->re)) != NULL)
		(void)pcre2_jit_compile(*part, PCRE2_JIT_PARTIAL_HARD);
	return *part != NULL ? *part : m->rb->sigs[si]->re;
}

static int
match_partial(struct matcher *m, uint32_t si, const char *msg, size_t msglen)
{
	return pcre2_match(partial_code(m, si), (PCRE2_SPTR)msg, msglen, 0, PCRE2_PARTIAL_HARD,
	    m->md, m->mctx);
}

int
matcher_may_continue(struct matcher *m, const uint32_t *sigs, size_t n, const char *msg,
    size_t msglen)
{
	size_t j;
	int rc;

	for (j = 0; j < n; j++) {
		rc = match_partial(m, sigs[j], msg, msglen);
		if (rc == PCRE2_ERROR_PARTIAL || rc >= 0)
			return 1;
	}
	return 0;
}

size_t
matcher_cut_short(struct matcher *m, uint32_t si, const char *msg, size_t msglen)
{
	const PCRE2_SIZE *ov;

	if (match_partial(m, si, msg, msglen) != PCRE2_ERROR_PARTIAL)
		return 0;
	/* (PCRE2 calls the empty string at the end a partial match of an
	 * unanchored pattern: no part of the line began one) */
	ov = pcre2_get_ovector_pointer(m->md);
	return ov[1] > ov[0] ? ov[1] - ov[0] : 0;
}
