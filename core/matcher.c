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
#define SHORT_FRAG	8	/* shorter literals would slow the sampled scan */

struct frag {
	unsigned char	*s;	/* folded (short ones: lower case when icase) */
	size_t		 len;
	size_t		 sig;
	int		 icase;
	size_t		 rare;	/* short ones: the offset of the byte memchr looks for */
	size_t		 win;	/* long ones: first of the `step` gram offsets indexed */
};

/* How common a byte is in logs, roughly (higher: more common): lower-case
 * letters by English frequency, then digits, spaces and the punctuation of
 * timestamps and paths; capitals and other punctuation are rare. The
 * rarest byte of a short literal is the one memchr looks for. */
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
	struct reqs {
		struct frag	*v;
		size_t		 n;
	}			*req;		/* distinct requires lists */
	size_t			 nreq;
	int			*reqof;		/* per signature: its list, -1 */
	signed char		*reqseen;	/* per list, this line: -1 unknown, 0, 1 */
	struct frag		*shorts;	/* fragments under SHORT_FRAG: searched whole */
	size_t			 nshorts;
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

static int short_found(const struct frag *f, const char *t, size_t n);


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
		}
	}
}

static void
short_init(struct frag *f, const char *lit, int icase)
{
	size_t i, len = strlen(lit);

	f->len = len;
	f->icase = icase;
	f->s = (unsigned char *)xstrdup(lit);
	f->rare = 0;
	for (i = 0; i < len; i++) {
		if (icase && f->s[i] >= 'A' && f->s[i] <= 'Z')
			f->s[i] += 32;
		/* a letter cannot be looked for ignoring case with one memchr */
		if (icase && f->s[i] >= 'a' && f->s[i] <= 'z')
			continue;
		if (commonness(f->s[i]) < commonness(f->s[f->rare]) ||
		    (icase && f->s[f->rare] >= 'a' && f->s[f->rare] <= 'z'))
			f->rare = i;
	}
}

/* Fragments of SHORT_FRAG bytes or more go into the gram table, folded to
 * ASCII lower case; the sampling stride is set by the shortest of them (a
 * fragment of L bytes allows a stride of L - 3). Shorter fragments would
 * make the stride small for every line: each is searched for whole
 * instead (memmem, or ignoring case for a case-insensitive pattern), which
 * costs one fast pass per short fragment. */
static void
add_frag(struct matcher *m, const char *lit, size_t sig, int icase,
    size_t *cap, size_t *scap)
{
	struct frag *f;
	size_t i, len = strlen(lit);

	if (len < 4)
		return;
	if (len < SHORT_FRAG) {
		XGROW(m->shorts, *scap, m->nshorts + 1);
		f = &m->shorts[m->nshorts++];
		f->len = len;
		f->sig = sig;
		f->icase = icase;
		short_init(f, lit, icase);
		return;
	}
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
	size_t i, j, fcap = 0, scap = 0, minlen = MAX_STEP + 3;
	unsigned maxgroups = 0;
	unsigned char *has = xcalloc(rb->nsigs + 1, 1);

	m->rb = rb;
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		char **lits = NULL;
		size_t nl, before = m->nfrags + m->nshorts;
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
		if (m->nfrags + m->nshorts > before)
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
	index_grams(m);
	/* requires lists, shared between signatures that have the same one */
	m->req = xcalloc(rb->nsigs + 1, sizeof *m->req);
	m->reqof = xmalloc(sizeof *m->reqof * (rb->nsigs + 1));
	for (i = 0; i < rb->nsigs; i++) {
		const struct strlist *r = &rb->sigs[i]->requires;
		size_t g, k;

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
		m->req[m->nreq].v = xcalloc(r->n + 1, sizeof *m->req[m->nreq].v);
		for (j = 0; j < r->n; j++)
			if (strlen(r->v[j]) > 0)
				short_init(&m->req[m->nreq].v[m->req[m->nreq].n++], r->v[j], 1);
		m->nreq++;
	}
	m->reqseen = xmalloc(m->nreq + 1);
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
	for (i = 0; i < m->nshorts; i++)
		free(m->shorts[i].s);
	free(m->shorts);

	for (i = 0; i < m->nreq; i++) {
		size_t k;

		for (k = 0; k < m->req[i].n; k++)
			free(m->req[i].v[k].s);
		free(m->req[i].v);
	}
	free(m->req);
	free(m->reqof);
	free(m->reqseen);

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

void
matcher_tune(struct matcher *m, const char *sample, size_t n)
{
	uint16_t *count;
	uint32_t bytes[256];
	size_t i, j, w;

	if (n < 64)
		return;
	/* how often each (hashed, folded) 4-gram and each byte occur */
	count = xcalloc(GRAM_SIZE, sizeof *count);
	memset(bytes, 0, sizeof bytes);
	for (i = 0; i + 4 <= n; i++) {
		uint32_t h = gram_hash(fold4((const unsigned char *)sample + i), GRAM_BITS);

		if (count[h] < UINT16_MAX)
			count[h]++;
	}
	for (i = 0; i < n; i++)
		bytes[(unsigned char)sample[i]]++;
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
	/* short fragments: the rarest byte in this run's logs */
	for (i = 0; i < m->nshorts; i++) {
		struct frag *f = &m->shorts[i];
		uint64_t best = UINT64_MAX;

		for (j = 0; j < f->len; j++) {
			unsigned char c = f->s[j];
			uint64_t fr = bytes[c];

			if (f->icase && c >= 'a' && c <= 'z')
				fr += bytes[c - 32];
			if (fr < best) {
				best = fr;
				f->rare = j;
			}
		}
	}
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

/* Does the short fragment f occur in t[0..n)? memchr finds its rarest byte
 * (fast, vectorised, no set-up cost worth the name), then the bytes around
 * it are compared; for a case-insensitive fragment, letters compare folded. */
static int
short_at(const struct frag *f, const unsigned char *s)
{
	size_t i;

	for (i = 0; i < f->len; i++) {
		int c = s[i];

		if (f->icase && c >= 'A' && c <= 'Z')
			c += 32;
		if (c != f->s[i])
			return 0;
	}
	return 1;
}

static int
short_found(const struct frag *f, const char *t, size_t n)
{
	const char *p, *end, *q;
	int c = f->s[f->rare], passes, k;

	if (n < f->len)
		return 0;
	/* a case-insensitive letter is looked for in both cases */
	passes = f->icase && c >= 'a' && c <= 'z' ? 2 : 1;
	for (k = 0; k < passes; k++, c -= 32) {
		p = t + f->rare;
		end = t + n - (f->len - f->rare - 1);
		while (p < end && (q = memchr(p, c, (size_t)(end - p))) != NULL) {
			if (short_at(f, (const unsigned char *)q - f->rare))
				return 1;
			p = q + 1;
		}
	}
	return 0;
}


/* One of a requires list in the line? One memchr pass per distinct rare
 * byte; at each hit, every literal of the list with that rare byte. */
static int
req_found(const struct reqs *r, const char *t, size_t n)
{
	unsigned char done[256];
	size_t i, k;

	memset(done, 0, sizeof done);
	for (i = 0; i < r->n; i++) {
		unsigned char c = r->v[i].s[r->v[i].rare];
		const char *p = t, *q;

		if (done[c] || (c >= 'a' && c <= 'z'))
			continue;	/* letters: see below */
		done[c] = 1;
		while ((q = memchr(p, c, (size_t)(t + n - p))) != NULL) {
			for (k = i; k < r->n; k++) {
				const struct frag *f = &r->v[k];

				if (f->s[f->rare] == c && (size_t)(q - t) >= f->rare &&
				    (size_t)(q - t) - f->rare + f->len <= n &&
				    short_at(f, (const unsigned char *)q - f->rare))
					return 1;
			}
			p = q + 1;
		}
	}
	for (i = 0; i < r->n; i++)
		if (r->v[i].s[r->v[i].rare] >= 'a' && r->v[i].s[r->v[i].rare] <= 'z' &&
		    short_found(&r->v[i], t, n))
			return 1;
	return 0;
}

static int
run_one(struct matcher *m, size_t si, const char *line, size_t linelen,
    const char *msg, size_t msglen, match_fn fn, void *arg)
{
	const struct signature *s = m->rb->sigs[si];
	int rc;

	if (m->reqof[si] >= 0) {
		int g = m->reqof[si];

		if (m->reqseen[g] < 0)
			m->reqseen[g] = (signed char)req_found(&m->req[g], line, linelen);
		if (!m->reqseen[g])
			return 0;
	}

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
	if (m->nreq > 0)
		memset(m->reqseen, 0xff, m->nreq);
	if (m->nfrags > 0 && linelen >= 4) {
		size_t last = linelen - 4;

		for (i = 0; i <= last; i += step) {
			uint32_t k = fold4(t + i), h = gram_hash(k, GRAM_BITS);

			if (m->bitmap[h >> 6] & (1ull << (h & 63)))
				candidate(m, t, linelen, i, k);
		}
	}
	for (j = 0; j < m->nshorts; j++) {
		const struct frag *f = &m->shorts[j];

		if (!m->cand[f->sig] && short_found(f, line, linelen)) {
			m->cand[f->sig] = 1;
			m->candlist[m->ncand++] = f->sig;
		}
	}
	if (m->ncand == 0 && m->nalways == 0)
		return 0;
	/* Signatures in rulebook order, so results never depend on hashing. */
	for (j = 0; j < m->nalways; j++)
		if (!m->cand[m->always[j]])
			m->candlist[m->ncand++] = m->always[j];
	/* a handful of candidates: insertion sort */
	for (j = 1; j < m->ncand; j++) {
		size_t x = m->candlist[j], k = j;

		while (k > 0 && m->candlist[k - 1] > x) {
			m->candlist[k] = m->candlist[k - 1];
			k--;
		}
		m->candlist[k] = x;
	}
	for (j = 0; j < m->ncand; j++) {
		found += (size_t)run_one(m, m->candlist[j], line, linelen, msg, msglen, fn, arg);
		m->cand[m->candlist[j]] = 0;
	}
	m->ncand = 0;
	return (int)found;
}
