/* matcher.c: literal prefilter + PCRE2 JIT.
 * The scan loop is the hottest code in rankwatch: keep it branch-light. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "xmalloc.h"

#define GRAM_BITS	16
#define GRAM_SIZE	(1u << GRAM_BITS)
#define HASH_BITS	12
#define MAX_STEP	8

struct frag {
	unsigned char	*s;	/* folded (short ones: lower case when icase) */
	size_t		 len;
	size_t		 sig;
	int		 icase;
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
	size_t			*always;	/* signatures with no fragment */
	size_t			 nalways;
	int			 step;
	unsigned char		*cand;		/* per signature: 1 = run */
	size_t			*candlist;
	size_t			 ncand;
	pcre2_match_data	*md;
	pcre2_match_context	*mctx;
	pcre2_jit_stack		*jstack;
	const struct signature	*err_sig;
	int			 err_code;
};

static inline uint32_t
fold4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v | 0x20202020u;
}

static inline uint32_t
gram_hash(uint32_t k, unsigned bits)
{
	return (k * 0x9E3779B1u) >> (32 - bits);
}

/* --- fragment extraction ------------------------------------------------ */

static int
is_quant(char c)
{
	return c == '?' || c == '*' || c == '+' || c == '{';
}

/* Skip a group or class starting at p[i]; returns index after it. */
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
	if (strstr(pattern, "(?x") != NULL || strstr(pattern, "\\Q") != NULL)
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

/* Every fragment goes into the gram table, folded to ASCII lower case. The
 * sampling stride is set by the shortest fragment (a fragment of L bytes
 * allows a stride of L - 3), so one short literal slows every line a
 * little: --check-rules warns about them. */
static void
add_frag(struct matcher *m, const char *lit, size_t sig, int icase,
    size_t *cap, size_t *scap)
{
	struct frag *f;
	size_t i, len = strlen(lit);

	(void)icase;
	(void)scap;
	if (len < 4)
		return;
	XGROW(m->frags, *cap, m->nfrags + 1);
	f = &m->frags[m->nfrags++];
	f->len = len;
	f->sig = sig;
	f->s = xmalloc(len + 1);
	for (i = 0; i < len; i++)
		f->s[i] = (unsigned char)lit[i] | 0x20;
	f->s[len] = 0;
}

struct matcher *
matcher_new(const struct rulebook *rb)
{
	struct matcher *m = xcalloc(1, sizeof *m);
	size_t i, j, fcap = 0, gcap = 0, scap = 0, minlen = MAX_STEP + 3;
	unsigned maxgroups = 0;
	unsigned char *has = xcalloc(rb->nsigs + 1, 1);

	m->rb = rb;
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		char **lits = NULL;
		size_t nl, before = m->nfrags;
		uint32_t opts = 0;
		int icase;

		if (s->re == NULL)
			continue;
		if (s->ngroups > maxgroups)
			maxgroups = s->ngroups;
		pcre2_jit_compile(s->re, PCRE2_JIT_COMPLETE);
		pcre2_pattern_info(s->re, PCRE2_INFO_ALLOPTIONS, &opts);
		icase = (opts & PCRE2_CASELESS) != 0 || strncmp(s->pattern, "(?i)", 4) == 0;
		if (s->prefilter.n > 0) {
			for (j = 0; j < s->prefilter.n; j++)
				if (strlen(s->prefilter.v[j]) < 4)
					break;
			if (j == s->prefilter.n)
				for (j = 0; j < s->prefilter.n; j++)
					add_frag(m, s->prefilter.v[j], i, icase, &fcap, &scap);
		} else {
			nl = matcher_fragments(s->pattern, &lits);
			for (j = 0; j < nl; j++) {
				add_frag(m, lits[j], i, icase, &fcap, &scap);
				free(lits[j]);
			}
			free(lits);
		}
		if (m->nfrags > before)
			has[i] = 1;
	}
	for (i = 0; i < m->nfrags; i++)
		if (m->frags[i].len < minlen)
			minlen = m->frags[i].len;
	m->step = (int)(minlen - 3);
	if (m->step > MAX_STEP)
		m->step = MAX_STEP;
	if (m->step < 1)
		m->step = 1;
	for (i = 0; i < (1u << HASH_BITS); i++)
		m->heads[i] = -1;
	for (i = 0; i < m->nfrags; i++) {
		for (j = 0; j < (size_t)m->step && j + 4 <= m->frags[i].len; j++) {
			struct gram *g;
			uint32_t k = fold4(m->frags[i].s + j), h;

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
		}
	}
	m->always = xcalloc(rb->nsigs + 1, sizeof *m->always);
	for (i = 0; i < rb->nsigs; i++)
		if (!has[i] && rb->sigs[i]->re != NULL)
			m->always[m->nalways++] = i;
	free(has);
	m->cand = xcalloc(rb->nsigs + 1, 1);
	m->candlist = xcalloc(rb->nsigs + 1, sizeof *m->candlist);
	m->md = pcre2_match_data_create(maxgroups + 1, NULL);
	m->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(m->mctx, 200000);
	pcre2_set_depth_limit(m->mctx, 5000);
	pcre2_set_heap_limit(m->mctx, 8192);	/* KiB */
	m->jstack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, NULL);
	if (m->jstack != NULL)
		pcre2_jit_stack_assign(m->mctx, NULL, m->jstack);
	return m;
}

void
matcher_free(struct matcher *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nfrags; i++)
		free(m->frags[i].s);
	free(m->frags);

	free(m->grams);
	free(m->always);
	free(m->cand);
	free(m->candlist);
	pcre2_match_data_free(m->md);
	pcre2_match_context_free(m->mctx);
	if (m->jstack != NULL)
		pcre2_jit_stack_free(m->jstack);
	free(m);
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
	*lit = (const char *)m->frags[best].s;
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

static void
candidate(struct matcher *m, const unsigned char *t, size_t len, size_t i,
    uint32_t k)
{
	int32_t gi;

	for (gi = m->heads[gram_hash(k, HASH_BITS)]; gi >= 0; gi = m->grams[gi].next) {
		const struct gram *g = &m->grams[gi];
		const struct frag *f = &m->frags[g->frag];
		size_t start, x;

		if (g->key != k || m->cand[f->sig] || i < g->off)
			continue;
		start = i - g->off;
		if (start + f->len > len)
			continue;
		for (x = 0; x < f->len; x++)
			if ((t[start + x] | 0x20) != f->s[x])
				break;
		if (x == f->len) {
			m->cand[f->sig] = 1;
			m->candlist[m->ncand++] = f->sig;
		}
	}
}

static int
size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int
run_one(struct matcher *m, size_t si, const char *msg, size_t msglen,
    match_fn fn, void *arg)
{
	const struct signature *s = m->rb->sigs[si];
	int rc;

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

int
matcher_match(struct matcher *m, const char *line, size_t linelen,
    const char *msg, size_t msglen, match_fn fn, void *arg)
{
	const unsigned char *t = (const unsigned char *)line;
	const size_t step = (size_t)m->step;
	size_t i, j, found = 0;

	m->ncand = 0;
	if (m->nfrags > 0 && linelen >= 4) {
		size_t last = linelen - 4;

		for (i = 0; i <= last; i += step) {
			uint32_t k = fold4(t + i), h = gram_hash(k, GRAM_BITS);

			if (m->bitmap[h >> 6] & (1ull << (h & 63)))
				candidate(m, t, linelen, i, k);
		}
	}
	if (m->ncand == 0 && m->nalways == 0)
		return 0;
	/* Signatures in rulebook order, so results never depend on hashing. */
	for (j = 0; j < m->nalways; j++)
		if (!m->cand[m->always[j]])
			m->candlist[m->ncand++] = m->always[j];
	qsort(m->candlist, m->ncand, sizeof *m->candlist, size_cmp);
	for (j = 0; j < m->ncand; j++) {
		found += (size_t)run_one(m, m->candlist[j], msg, msglen, fn, arg);
		m->cand[m->candlist[j]] = 0;
	}
	m->ncand = 0;
	return (int)found;
}
