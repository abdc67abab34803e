/* event.c: matched lines as facts. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "event.h"
#include "strset.h"
#include "xmalloc.h"

/* What tells a line read back from the one matched (never stored): eight
 * bytes a step, an event is made for every matched line. */
static uint32_t
text_hash(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, p, n);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)(h ^ h >> 29);
}

#define HAS_UPPER(ev)	(((ev)->ts.flags & STAMP_INHERITED) != 0)
#define UPPER(ev)	((struct stamp *)((ev) + 1))
/* After the event (and its upper bound), an event's own facts: struct
 * fact[nfacts], then their values. A shared one (event_compact) has its
 * exemplar's fact ids, in the same order: there, its exemplar (a pointer),
 * a bit a fact for the values it has of its own ((nfacts + 7) / 8 bytes),
 * and those values in order; the others are the exemplar's. */
#define BODY(ev)	((char *)((ev) + 1) + (HAS_UPPER(ev) ? sizeof(struct stamp) : 0))
#define FACTS(ev)	((struct fact *)BODY(ev))
#define OWNMASK(ev)	((unsigned char *)BODY(ev) + sizeof(const struct event *))
#define OWNVALUES(ev)	((const char *)OWNMASK(ev) + ((ev)->nfacts + 7u) / 8u)

/* --- arenas ----------------------------------------------------------------- */

_Static_assert(EVPOOL_MAX / 8 < 256, "a pool event's size class fits event.cls");
_Static_assert(LINE_CRASH_DUMP == 1 << 6, "the LINE_ flags below it fit event.flags");

#define EVARENA_BLOCK	(4 * 1024)
#define EVPOOL_BLOCK	(64 * 1024)

struct evblock {
	struct evblock	*next;
	size_t		 size;
	_Alignas(max_align_t) char data[];
};

/* n bytes (rounded by the caller to what it aligns to) from a's newest
 * block, or from a new one of block bytes (of n when larger). */
static void *
carve(struct evarena *a, size_t n, size_t block)
{
	char *p;

	if ((size_t)(a->end - a->at) < n) {
		size_t size = n > block ? n : block;
		struct evblock *b = xmalloc(sizeof *b + size);

		b->size = size;
		b->next = a->blocks;
		a->blocks = b;
		a->at = b->data;
		a->end = b->data + size;
	}
	p = a->at;
	a->at += n;
	return p;
}

static void *
evarena_alloc(struct evarena *a, size_t n)
{
	return carve(a, (n + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1),
	    EVARENA_BLOCK);
}

void
evarena_reset(struct evarena *a)
{
	struct evblock *b = a->blocks, *next;

	if (b == NULL)
		return;
	/* the newest stays if it is a whole block (not one large event) */
	if (b->size != EVARENA_BLOCK) {
		a->blocks = b->next;
		free(b);
		evarena_reset(a);
		return;
	}
	for (next = b->next; next != NULL; next = b->next) {
		b->next = next->next;
		free(next);
	}
	a->at = b->data;
	a->end = b->data + b->size;
}

void
evarena_release(struct evarena *a)
{
	struct evblock *b, *next;

	for (b = a->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	memset(a, 0, sizeof *a);
}

/* One allocation holds the event, its facts and their values (and the
 * text when it is kept): events are made (and most of them dropped) by
 * the thousand. */
struct event *
event_new(const struct signature *sig, const struct line *ln,
    const struct event_where *where, int keep, const char *host, const char *subject,
    const size_t *ov, struct evarena *arena)
{
	struct event *ev;
	unsigned g;
	size_t n = ln->rawlen < EVENT_TEXT_MAX ? ln->rawlen : EVENT_TEXT_MAX;
	size_t size = sizeof *ev, nf = 0;
	char *p;

	for (g = 1; g <= sig->ngroups; g++) {
		size_t a = ov[2 * g], b = ov[2 * g + 1];

		if (sig->fact_of_group[g] >= 0 && a != PCRE2_UNSET && b >= a) {
			size += (b - a > FACT_VALUE_MAX ? FACT_VALUE_MAX : b - a) + 1;
			nf++;
		}
	}
	size += nf * sizeof(struct fact);
	if (ln->ts.flags & STAMP_INHERITED)
		size += sizeof(struct stamp);
	if (keep)
		size += n + 1;
	ev = arena != NULL ? evarena_alloc(arena, size) : xmalloc(size);
	memset(ev, 0, sizeof *ev);
	ev->home = arena != NULL ? EVENT_ARENA : EVENT_MALLOC;
	ev->sig = sig;
	ev->rank = ln->rank;
	ev->rank_from = (uint8_t)ln->rank_from;
	ev->ts = ln->ts;
	if (HAS_UPPER(ev))
		memset(UPPER(ev), 0, sizeof *UPPER(ev));
	ev->where = where;
	ev->host = host;
	ev->lineno = ln->lineno;
	ev->offset = ln->offset;
	ev->flags = (uint16_t)(ln->flags & (LINE_CRASH_DUMP - 1));
	ev->pid = ln->pid;
	ev->label = ln->label;
	ev->node = ln->node;
	ev->textlen = (uint16_t)n;
	ev->texthash = keep ? 0 : text_hash(ln->raw, n);	/* a kept text is not read back */
	p = (char *)(FACTS(ev) + nf);
	for (g = 1; g <= sig->ngroups; g++) {
		size_t a = ov[2 * g], b = ov[2 * g + 1];

		if (sig->fact_of_group[g] < 0 || a == PCRE2_UNSET || b < a)
			continue;
		if (b - a > FACT_VALUE_MAX)
			b = a + FACT_VALUE_MAX;
		FACTS(ev)[ev->nfacts].id = (uint16_t)sig->fact_of_group[g];
		FACTS(ev)[ev->nfacts].off = (uint16_t)(p - (char *)ev);
		memcpy(p, subject + a, b - a);
		p[b - a] = '\0';
		p += b - a + 1;
		ev->nfacts++;
	}
	if (keep) {
		ev->kept = 1;
		memcpy(p, ln->raw, n);
		p[n] = '\0';
	}
	return ev;
}

const char *
event_where_path(const struct event_where *w, char *buf, size_t size)
{
	int n;

	if (!event_where_in_dir(w))
		return w->base;
	n = snprintf(buf, size, "%s%s", w->base, w->name);
	return n >= 0 && (size_t)n < size ? buf : NULL;
}

int
event_where_in_dir(const struct event_where *w)
{
	size_t n = w->base != NULL ? strlen(w->base) : 0;

	return n > 0 && w->base[n - 1] == '/';
}

void
event_free(struct event *ev)
{
	if (ev == NULL || ev->home == EVENT_ARENA)
		return;
	if (ev->home == EVENT_POOL)
		abort();	/* event_put */
	free(ev);
}

/* --- kept text, compacted ---------------------------------------------------- */

/* A kept line is split into words: a run of letters and digits with a
 * digit in it is a variable (a rank, a time, a count, an address), all
 * else is the skeleton, where each variable is a SKEL_VAR byte. The
 * 131,072 watchdog timeouts of a run share one skeleton, and the first
 * line's variables are kept with it (the exemplar, each ended by a NUL).
 * An event keeps its variables, each ended by a NUL, and of those equal
 * to the exemplar's only the NUL: most ranks' lines differ from the
 * first's in a few words (the rank, the time), not in the sequence
 * number, the sizes or the source line. And in a variable, a run of
 * digits that is the line's own rank (line_rank, set before the event is
 * compacted and never after) is a RANK_VAR byte, in the exemplar's as in
 * the event's: "[rank69397]" and "[Rank 69397]" are the first line's
 * words again. So is a run of 3 digits or more that is the whole value
 * of one of the event's facts, FACT_VAR and a byte for which (0x20 + its
 * place): a value of its own is not kept twice (the watchdog's "ran for
 * 600071 milliseconds"). A run of up to 16 words as the exemplar has them is one
 * SAME_RUN byte, not a NUL each (a word is letters and digits: no such
 * byte is in one). */
#define SKEL_VAR	'\001'
#define RANK_VAR	'\002'
#define FACT_VAR	'\003'
#define FACT_VARS	64	/* the facts a FACT_VAR can name: places 0 .. 63 */
#define SAME_RUN(n)	((char)(0x10 + (n) - 1))	/* n = 1 .. 16 words */
#define IS_SAME_RUN(c)	((unsigned char)(c) >= 0x10 && (unsigned char)(c) <= 0x1f)

/* The words of a compacted text that are its own: each its own, ended by
 * a NUL, or one of a run as the exemplar has them. */
struct varcur {
	const char	*v;	/* the next of its own (or SAME_RUN byte) */
	const char	*ex;	/* the exemplar's word for this place */
	unsigned	 same;	/* words of the run left, after this one */
};

/* The word for the next SKEL_VAR: its own or the exemplar's. */
static const char *
next_var(struct varcur *c)
{
	const char *w;

	if (c->same == 0 && IS_SAME_RUN(*c->v))
		c->same = (unsigned)(unsigned char)*c->v++ - 0x10 + 1;
	if (c->same > 0) {
		c->same--;
		w = c->ex;
	} else {
		w = c->v;
		c->v += strlen(c->v) + 1;
	}
	c->ex += strlen(c->ex) + 1;
	return w;
}

static int
isdigit_(char c)
{
	return c >= '0' && c <= '9';
}

static int
isalnum_(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The word at p[0..n): its length; *var: it has a digit. */
static size_t
word(const char *p, size_t n, int *var)
{
	size_t i = 0;

	*var = 0;
	if (!isalnum_((unsigned char)p[0])) {
		while (i < n && !isalnum_((unsigned char)p[i]))
			i++;
		return i;
	}
	for (; i < n && isalnum_((unsigned char)p[i]); i++)
		if (p[i] >= '0' && p[i] <= '9')
			*var = 1;
	return i;
}

/* A shared event's exemplar (never itself shared). */
static const struct event *
exemplar(const struct event *ev)
{
	const struct event *ex;

	memcpy(&ex, BODY(ev), sizeof ex);
	return ex;
}

static int
own_value(const struct event *ev, size_t i)
{
	return OWNMASK(ev)[i / 8] >> (i % 8) & 1;
}

/* The i-th fact's id. */
static int
id_at(const struct event *ev, size_t i)
{
	return ev->shared ? FACTS(exemplar(ev))[i].id : FACTS(ev)[i].id;
}

/* The i-th fact's value: its own, or its exemplar's. */
static const char *
value_at(const struct event *ev, size_t i)
{
	const char *v;
	size_t j;

	if (!ev->shared)
		return (const char *)ev + FACTS(ev)[i].off;
	if (!own_value(ev, i))
		return (const char *)exemplar(ev) + FACTS(exemplar(ev))[i].off;
	for (v = OWNVALUES(ev), j = 0; j < i; j++)	/* (a few, short) */
		if (own_value(ev, j))
			v += strlen(v) + 1;
	return v;
}

/* Where the values of its own end: the kept text's place. */
static const char *
kept_text(const struct event *ev)
{
	const char *end, *v;
	size_t i;

	if (ev->shared) {
		for (v = OWNVALUES(ev), i = 0; i < ev->nfacts; i++)
			if (own_value(ev, i))
				v += strlen(v) + 1;
		return v;
	}
	end = (const char *)(FACTS(ev) + ev->nfacts);
	for (i = 0; i < ev->nfacts; i++)
		if ((v = (const char *)ev + FACTS(ev)[i].off) >= end)
			end = v + strlen(v) + 1;
	return end;
}

/* The bytes ev holds: its own values end where its text begins; then
 * the text, or a skeleton's pointer and the words of its own. */
static size_t
event_size(const struct event *ev)
{
	const char *t = kept_text(ev), *sk;
	size_t size = (size_t)(t - (const char *)ev);
	struct varcur c;

	if (ev->kept == 1)
		return size + strlen(t) + 1;
	if (ev->kept != 2)
		return size;
	memcpy(&sk, t, sizeof sk);
	c.v = t + sizeof sk;
	c.ex = sk + strlen(sk) + 1;
	c.same = 0;
	for (; *sk != '\0'; sk++)
		if (*sk == SKEL_VAR)
			(void)next_var(&c);
	return (size_t)(c.v - (const char *)ev);
}

void *
evpool_get(struct evpool *p, size_t size)
{
	size_t k = (size + 7) / 8;
	void *m;

	if (k * 8 > EVPOOL_MAX)
		return xmalloc(size);
	if (p->free[k] != NULL) {
		m = p->free[k];
		memcpy(&p->free[k], m, sizeof p->free[k]);
	} else
		m = carve(&p->carve, k * 8, EVPOOL_BLOCK);
	return m;
}

void
evpool_give(struct evpool *p, void *mem, size_t size)
{
	size_t k = (size + 7) / 8;

	if (mem == NULL)
		return;
	if (k * 8 > EVPOOL_MAX) {
		free(mem);
		return;
	}
	memcpy(mem, &p->free[k], sizeof p->free[k]);
	p->free[k] = mem;
}

/* Room for an event of size bytes in p (a malloc'd one when larger than
 * a pool holds). */
static struct event *
evpool_alloc(struct evpool *p, size_t size)
{
	struct event *ev = evpool_get(p, size);
	size_t k = (size + 7) / 8;

	ev->home = k * 8 > EVPOOL_MAX ? EVENT_MALLOC : EVENT_POOL;
	ev->cls = ev->home == EVENT_POOL ? k : 0;
	return ev;
}

/* n bytes of ev into c, which keeps where its memory is. */
static void
copy_into(struct event *c, const struct event *ev, size_t n)
{
	unsigned home = c->home, cls = c->cls;

	memcpy(c, ev, n);
	c->home = home;
	c->cls = cls;
}

void
event_put(struct evpool *p, struct event *ev)
{
	if (ev == NULL || ev->home != EVENT_POOL) {
		event_free(ev);
		return;
	}
	evpool_give(p, ev, (size_t)ev->cls * 8);
}

void
evpool_release(struct evpool *p)
{
	evarena_release(&p->carve);
	memset(p->free, 0, sizeof p->free);
}

struct event *
event_own(struct event *ev, struct evpool *p)
{
	size_t size;
	struct event *c;

	if (ev->home == EVENT_POOL)
		return ev;
	size = event_size(ev);
	c = evpool_alloc(p, size);
	copy_into(c, ev, size);
	event_free(ev);
	return c;
}

/* A kept text t[0..n) as a skeleton in skeletons and the words of its
 * own, into own (*no bytes); 0: not worth it. */
static int
compact_text(const struct event *ev, const char *t, size_t n, struct strset *skeletons,
    char *own, size_t *no)
{
	char skel[EVENT_TEXT_MAX + 1], vars[2 * EVENT_TEXT_MAX + 2], rk[16];
	const char *sk, *ex, *v;
	size_t i, j, d, l, f, ns = 0, nv = 0, nrk = 0, same = 0;
	int var, rank = ev->line_rank;

	*no = 0;
	if (n < 32 || memchr(t, SKEL_VAR, n) != NULL || memchr(t, RANK_VAR, n) != NULL)
		return 0;
	if (rank >= 0)
		nrk = (size_t)snprintf(rk, sizeof rk, "%d", rank);
	for (i = 0; i < n; i += l) {
		l = word(t + i, n - i, &var);
		if (var) {
			skel[ns++] = SKEL_VAR;
			for (j = 0; j < l; j += d) {
				for (d = 0; j + d < l && isdigit_(t[i + j + d]); d++)
					;
				if (d > 0 && d == nrk && memcmp(t + i + j, rk, d) == 0) {
					vars[nv++] = RANK_VAR;
					continue;
				}
				/* (3 digits or more: the marker is 2 bytes) */
				for (f = 0; d > 2 && f < ev->nfacts && f < FACT_VARS; f++)
					if (strlen(value_at(ev, f)) == d &&
					    memcmp(value_at(ev, f), t + i + j, d) == 0)
						break;
				if (d > 2 && f < ev->nfacts && f < FACT_VARS) {
					vars[nv++] = FACT_VAR;
					vars[nv++] = (char)(0x20 + f);
				} else if (d > 0) {
					memcpy(vars + nv, t + i + j, d);
					nv += d;
				} else
					vars[nv++] = t[i + j + d++];
			}
			vars[nv++] = '\0';
		} else {
			memcpy(skel + ns, t + i, l);
			ns += l;
		}
	}
	if (nv + sizeof sk >= n + 1)
		return 0;	/* nothing to gain */
	sk = strset_add_with(skeletons, skel, ns, vars, nv);
	memcpy(own, &sk, sizeof sk);
	*no = sizeof sk;
	/* the variables as the exemplar has them, in runs of up to 16, a
	 * byte a run (next_var) */
	for (v = vars, ex = sk + ns + 1; v < vars + nv; v += l + 1, ex += strlen(ex) + 1) {
		l = strlen(v);
		if (strcmp(v, ex) == 0) {
			if (same > 0 && (unsigned char)own[*no - 1] < 0x1f)
				own[*no - 1]++;	/* one more in the run */
			else
				own[(*no)++] = SAME_RUN(1);
			same = 1;
			continue;
		}
		same = 0;
		memcpy(own + *no, v, l + 1);
		*no += l + 1;
	}
	return 1;
}

/* Has ev its facts in the order ex has them (a shared event reads the
 * ids of its exemplar's)? */
static int
same_ids(const struct event *ev, const struct event *ex)
{
	size_t i;

	if (ex == NULL || ex->sig != ev->sig || ex->shared || ex->nfacts != ev->nfacts ||
	    ev->nfacts > 64)
		return 0;
	for (i = 0; i < ev->nfacts; i++)
		if (FACTS(ev)[i].id != FACTS(ex)[i].id)
			return 0;
	return 1;
}

struct event *
event_compact(struct event *ev, struct strset *skeletons, const struct event *ex,
    struct evpool *pool)
{
	char own[2 * EVENT_TEXT_MAX + 2 + sizeof(const char *)];
	const char *text;
	struct event *c;
	size_t body = (size_t)(BODY(ev) - (char *)ev), size, i, no = 0, mine = 0, all = 0;
	uint64_t ownmask = 0;	/* which values are its own, not ex's */
	int skel = 0, share;
	char *p;

	if (ev->shared || ev->kept == 2)
		return event_own(ev, pool);
	if ((share = same_ids(ev, ex)) != 0)
		for (i = 0; i < ev->nfacts; i++) {
			size_t l = strlen(value_at(ev, i)) + 1;

			all += l;
			if (strcmp(value_at(ev, i), value_at(ex, i)) != 0) {
				ownmask |= (uint64_t)1 << i;
				mine += l;
			}
		}
	/* shared: the pointer, the mask and its own values, for the fact
	 * table and every value */
	if (share && sizeof ex + (ev->nfacts + 7) / 8 + mine >=
	    ev->nfacts * sizeof(struct fact) + all)
		share = 0;
	text = kept_text(ev);
	if (ev->kept == 1) {
		size_t tl = strlen(text) + 1;

		skel = compact_text(ev, text, tl - 1, skeletons, own, &no);
		if (!skel)
			no = tl;
	}
	if (!share && !skel)
		return event_own(ev, pool);
	size = share ? body + sizeof ex + (ev->nfacts + 7) / 8 + mine :
	    (size_t)(text - (const char *)ev);
	c = evpool_alloc(pool, size + no);
	copy_into(c, ev, body);
	if (share) {
		c->shared = 1;
		memcpy(BODY(c), &ex, sizeof ex);
		for (i = 0; i < (ev->nfacts + 7u) / 8u; i++)
			OWNMASK(c)[i] = (unsigned char)(ownmask >> (8 * i));
		p = (char *)OWNVALUES(c);
		for (i = 0; i < ev->nfacts; i++)
			if (ownmask >> i & 1)
				p = stpcpy(p, value_at(ev, i)) + 1;
	} else {
		memcpy(FACTS(c), FACTS(ev), (size_t)(text - BODY(ev)));
		p = (char *)c + (text - (const char *)ev);
	}
	if (ev->kept == 1) {
		memcpy(p, skel ? own : text, no);
		c->kept = skel ? 2 : 1;
	}
	event_free(ev);
	return c;
}

/* A compacted text, whole again, in buf. */
static const char *
uncompact(const struct event *ev, char buf[EVENT_TEXT_MAX + 1])
{
	const char *sk, *w;
	char rk[16];
	size_t n = 0, l, nrk = 0;
	struct varcur c;

	memcpy(&sk, kept_text(ev), sizeof sk);
	c.v = kept_text(ev) + sizeof sk;
	c.ex = sk + strlen(sk) + 1;	/* the exemplar's variables */
	c.same = 0;
	if (ev->line_rank >= 0)	/* (what a RANK_VAR stands for) */
		nrk = (size_t)snprintf(rk, sizeof rk, "%d", ev->line_rank);
	for (; *sk != '\0' && n < EVENT_TEXT_MAX; sk++) {
		if (*sk != SKEL_VAR) {
			buf[n++] = *sk;
			continue;
		}
		for (w = next_var(&c); *w != '\0' && n < EVENT_TEXT_MAX; w++) {
			const char *r = rk;

			if (*w == FACT_VAR && w[1] != '\0' && (size_t)(w[1] - 0x20) < ev->nfacts) {
				r = value_at(ev, (size_t)(*++w - 0x20));
				l = strlen(r);
			} else if (*w == RANK_VAR)
				l = nrk;
			else {
				buf[n++] = *w;
				continue;
			}
			if (l > EVENT_TEXT_MAX - n)
				l = EVENT_TEXT_MAX - n;
			memcpy(buf + n, r, l);
			n += l;
		}
	}
	buf[n] = '\0';
	return buf;
}

const char *
event_text(const struct event *ev, char buf[EVENT_TEXT_MAX + 1])
{
	char pbuf[PATH_MAX];
	const char *path;
	ssize_t n;

	if (ev->kept == 2)
		return uncompact(ev, buf);
	if (ev->kept)
		return kept_text(ev);
	if ((path = event_where_path(ev->where, pbuf, sizeof pbuf)) == NULL ||
	    (n = read_file_at(path, buf, ev->textlen, ev->offset)) < 0)
		return NULL;
	if (n != (ssize_t)ev->textlen || text_hash(buf, (size_t)n) != ev->texthash)
		return NULL;
	buf[n] = '\0';
	return buf;
}

const char *
event_fact(const struct event *ev, int id)
{
	size_t i;

	for (i = 0; i < ev->nfacts; i++)
		if (id_at(ev, i) == id)
			return value_at(ev, i);
	return NULL;
}

const struct stamp *
event_upper(const struct event *ev)
{
	static const struct stamp none;

	return HAS_UPPER(ev) ? UPPER(ev) : &none;
}

void
event_set_upper(struct event *ev, const struct stamp *upper)
{
	if (HAS_UPPER(ev))
		*UPPER(ev) = *upper;
}

const char *
event_fact_at(const struct event *ev, size_t i, int *id)
{
	*id = id_at(ev, i);
	return value_at(ev, i);
}

int
event_fact_num(const struct event *ev, int id, double *out)
{
	const char *v = event_fact(ev, id);
	char *end;

	if (v == NULL)
		return 0;
	*out = strtod(v, &end);
	return end != v;
}

int
event_same_facts(const struct event *a, const struct event *b)
{
	size_t i;

	if (a->sig != b->sig || a->nfacts != b->nfacts)
		return 0;
	for (i = 0; i < a->nfacts; i++)
		if (id_at(a, i) != id_at(b, i) || strcmp(value_at(a, i), value_at(b, i)) != 0)
			return 0;
	return 1;
}

uint64_t
event_facts_hash(const struct event *ev)
{
	uint64_t h = fnv1a(FNV1A_INIT, &ev->sig, sizeof ev->sig);
	size_t i;

	for (i = 0; i < ev->nfacts; i++) {
		const char *v = value_at(ev, i);
		uint16_t id = (uint16_t)id_at(ev, i);

		h = fnv1a(h, &id, sizeof id);
		h = fnv1a(h, v, strlen(v) + 1);
	}
	return h;
}

struct event *
event_facts_copy(const struct event *ev)
{
	size_t body = (size_t)(BODY(ev) - (const char *)ev),
	    head = body + ev->nfacts * sizeof(struct fact), size = head, i;
	struct event *c;
	char *p;

	for (i = 0; i < ev->nfacts; i++)
		size += strlen(value_at(ev, i)) + 1;
	c = xmalloc(size);
	memcpy(c, ev, body);
	c->kept = 0;	/* no text: it is not a line to show */
	c->shared = 0;
	c->home = EVENT_MALLOC;
	for (i = 0, p = (char *)c + head; i < ev->nfacts; i++) {
		FACTS(c)[i].id = (uint16_t)id_at(ev, i);
		FACTS(c)[i].off = (uint16_t)(p - (char *)c);
		p = stpcpy(p, value_at(ev, i)) + 1;
	}
	return c;
}

int
event_repeats(const struct event *a, const struct event *b)
{
	return a->where == b->where && a->rank == b->rank && a->pid == b->pid &&
	    a->host == b->host && a->label == b->label && a->node == b->node &&
	    !((a->flags ^ b->flags) & (LINE_ROOT_CAUSE | LINE_SUMMARY)) &&
	    event_cmp_time(a, b) >= 0 && event_same_facts(a, b);
}

int
event_cmp_time(const struct event *a, const struct event *b)
{
	int c = stamp_cmp(&a->ts, &b->ts);

	if (c != 0)
		return c;
	/* Then the place in the stream: line order within a file, and a
	 * fixed order across files, so that the answer does not depend on
	 * which file happened to be read first (live or offline). */
	if (a->where != b->where && (c = strcmp(a->where->name, b->where->name)) != 0)
		return c < 0 ? -1 : 1;
	if (a->lineno != b->lineno)
		return a->lineno < b->lineno ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}
