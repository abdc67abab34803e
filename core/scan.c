/* scan.c: read a source into a batch of records (see scan.h): split its
 * bytes into lines, parse them, match them, make the events, and join
 * hard-wrapped records. */
#include "config.h"

#include <limits.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"
#include "xmalloc.h"

struct batch *
batch_new(void)
{
	struct batch *b = xcalloc(1, sizeof *b);

	notes_init(&b->notes);
	return b;
}

void
batch_clear(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->v[i].kind == REC_EVENT && b->v[i].u.ev != NULL)
			event_free(b->v[i].u.ev);	/* not applied */
	b->n = 0;
	evarena_reset(&b->arena);
	notes_release(&b->notes);
	notes_init(&b->notes);
	b->noted = 0;
	b->bytes = 0;
	b->last = 0;
	b->src = NULL;
	b->next = NULL;
}

void
batch_free(struct batch *b)
{
	if (b == NULL)
		return;
	batch_clear(b);
	notes_release(&b->notes);
	evarena_release(&b->arena);
	free(b->v);
	free(b);
}

static struct rec *
rec_push(struct batch *b, enum rec_kind kind)
{
	struct rec *r;

	XGROW(b->v, b->cap, b->n + 1);
	r = &b->v[b->n++];
	r->kind = (uint8_t)kind;
	return r;
}

/* A REC_NOTE for each note made since the last record. */
static void
notes_to_recs(struct batch *b)
{
	for (; b->noted < b->notes.n + b->notes.dropped; b->noted++)
		rec_push(b, REC_NOTE);
}

/* A record, after the notes made before it. */
static struct rec *
rec_add(struct batch *b, enum rec_kind kind)
{
	notes_to_recs(b);
	return rec_push(b, kind);
}

/* --- matches ------------------------------------------------------------ */

struct feedctx {
	struct scanner	*sc;
	const struct line *ln;
	struct source	*src;
	const char	*host;		/* the line's host, the source's copy, or NULL */
	int		 inplace;	/* ln->raw is the file's bytes at ln->offset */
	int		 trouble;	/* matches other than context and progress */
	int		 trouble_only;	/* record no others */
	/* the record held for the line's rank, which the line does not go
	 * on with by its shape: ended after the line is matched, unless its
	 * signature reads the line again (cut_goes_on) */
	const struct event *held;
};

/* A line's host as the source's copy (cut at 63 bytes), NULL for none. */
static const char *
line_host(struct source *src, const struct line *ln)
{
	if (ln->host == NULL || ln->hostlen == 0)
		return NULL;
	return source_host(src, ln->host, ln->hostlen < 63 ? ln->hostlen : 63);
}

/* --- records held to the end ------------------------------------------- */

/* A signature marked only_at_end (a traceback's head or frame) opens a
 * record that counts only if its rank's output ends inside it: a paste or
 * a log cut before the traceback's exception line. Its event is held,
 * one per rank and host of the source; the rank's next line drops it
 * unless it goes on with the record (indented, blank, or the signature's
 * again: the event stays the record's first line's, made once however
 * many of NCCL's set-up lines follow); the end of a finished source
 * (final) hands it on. */
#define CUTS_MAX	8

struct cut {
	struct event	*ev;		/* self-contained (no arena), its text kept */
	int		 rank;
	int		 own;		/* its rank is its line's own (a prefix, the file) */
	int		 tail;		/* a line its signature's start followed: the
					 * same line cut short where a paste ends */
	char		*host;		/* the line's, a copy: the source's may go */
	size_t		 hostlen;
};

struct cuts {
	size_t		 n;
	struct cut	 v[CUTS_MAX];
};

/* (the rest keep their order, the order their records began in) */
static void
cut_drop(struct cuts *c, size_t i)
{
	event_free(c->v[i].ev);
	free(c->v[i].host);
	memmove(&c->v[i], &c->v[i + 1], (--c->n - i) * sizeof *c->v);
}

/* Is the line's rank its own, not none or a record's it continues? */
static int
own_rank(const struct line *ln)
{
	return ln->rank >= 0 && ln->rank_from != RANK_NONE && ln->rank_from != RANK_INHERIT;
}

/* The held record ln is of: one of its rank, or, for a line without a
 * rank of its own, the one held for such lines (a rank a record lent
 * them is no line's own: an unranked line after them ends it). */
static struct cut *
cut_find(struct cuts *c, const struct line *ln)
{
	size_t i;
	int own = own_rank(ln);

	for (i = 0; c != NULL && i < c->n; i++)
		if ((c->v[i].own ? c->v[i].rank == ln->rank : !own) &&
		    ln->hostlen == c->v[i].hostlen &&
		    (ln->hostlen == 0 || memcmp(c->v[i].host, ln->host, ln->hostlen) == 0))
			return &c->v[i];
	return NULL;
}

/* Does ln go on with a record: blank, indented (a Python traceback's
 * frames), or a C++ one's next frame ("frame #2: ...", "Exception raised
 * from ... (most recent call first):")? */
static int
cut_continues(const struct line *ln)
{
	const char *p = ln->msg;
	size_t n = ln->msglen;

	return n == 0 || p[0] == ' ' || p[0] == '\t' ||
	    (p[0] == 'f' && starts(p, n, "frame #")) ||
	    (p[0] == 'E' && starts(p, n, "Exception raised from "));
}

/* Before ln is matched: the record held for its rank that ln does not go
 * on with by its shape (indented, blank, a C++ traceback's next frame),
 * or NULL. */
static const struct event *
cut_before(struct source *src, const struct line *ln)
{
	struct cuts *c = src->rd->cuts;
	struct cut *x = cut_find(c, ln);
	size_t i;

	if (x != NULL)
		return cut_continues(ln) ? NULL : x->ev;
	/* a wait held for its rank's lines of one host (NCCL's host:pid:tid)
	 * ends at any line of that rank: the process went on past it */
	for (i = 0; c != NULL && i < c->n; i++)
		if (c->v[i].own && c->v[i].rank == ln->rank && own_rank(ln) &&
		    c->v[i].ev->sig->fallout == FALLOUT_WAIT)
			return c->v[i].ev;
	return NULL;
}

/* After ln is matched, its signature not among the matches: does it end
 * the record held (held, cut_before's)? A line that is the start of one
 * its signature reads, cut short (a PCRE2 partial match), may be where a
 * paste ends: the record is kept, its tail, until another line shows the
 * paste went on. */
static void
cut_goes_on(struct scanner *sc, struct source *src, const struct line *ln,
    const struct event *held)
{
	struct cuts *c = src->rd->cuts;
	size_t i;

	for (i = 0; c != NULL && i < c->n && c->v[i].ev != held; i++)
		;
	if (c == NULL || i == c->n)
		return;
	if (!c->v[i].tail && matcher_cut_short(sc->matcher, (uint32_t)held->sig->index, ln->msg,
	    ln->msglen))
		c->v[i].tail = 1;
	else
		cut_drop(c, i);
}

static void
cut_hold(struct source *src, const struct line *ln, struct event *ev)
{
	struct cuts *c = src->rd->cuts;
	struct cut *x = cut_find(c, ln);

	if (x != NULL && !x->tail) {	/* the record's first line is held */
		event_free(ev);
		return;
	}
	if (x != NULL)	/* its tail was a whole line, not one cut short */
		cut_drop(c, (size_t)(x - c->v));
	if (c == NULL)
		c = src->rd->cuts = xcalloc(1, sizeof *c);
	if (c->n == CUTS_MAX)	/* the oldest goes */
		cut_drop(c, 0);
	c->v[c->n].ev = ev;
	c->v[c->n].rank = ln->rank;
	c->v[c->n].own = own_rank(ln);
	c->v[c->n].tail = 0;
	c->v[c->n].host = ln->hostlen > 0 ? xstrndup(ln->host, ln->hostlen) : NULL;
	c->v[c->n].hostlen = ln->hostlen;
	c->n++;
}

/* The end of a finished source: the records held are cut short, events
 * now, in the order they began. */
static void
cuts_end(struct batch *b, struct source *src)
{
	struct cuts *c = src->rd->cuts;
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		struct event *ev = c->v[i].ev;

		/* a cut record's catch-all (the watchdog's frames a log ends
		 * in) stands in for a line the paste lost: not where the
		 * source's own lines showed trouble */
		if (ev->sig->fallback && ev->sig->role != ROLE_INITIATING &&
		    src->rd->trouble_seen) {
			event_free(ev);
			c->v[i].ev = NULL;
			free(c->v[i].host);
			continue;
		}
		ev->host = c->v[i].host != NULL ?
		    source_host(src, c->v[i].host, strlen(c->v[i].host)) : NULL;
		rec_add(b, REC_EVENT)->u.ev = ev;
		c->v[i].ev = NULL;
		free(c->v[i].host);
	}
	free(c);
	src->rd->cuts = NULL;
}

/* --- matches (continued) -------------------------------------------------- */

static void
on_match(void *arg, const struct signature *sig, const char *subject,
    const PCRE2_SIZE *ov)
{
	struct feedctx *fc = arg;
	const struct line *ln = fc->ln;
	const struct source *src = fc->src;
	int minor = sig->role == ROLE_PROGRESS || sig->role == ROLE_CONTEXT;
	int readable, keep;
	struct event *ev;

	if (minor && fc->trouble_only)
		return;
	/* an exception Python printed as ignored did not end its process:
	 * no line of its record tells how a rank failed (the same words
	 * still count as fallout or as a sign) */
	if ((ln->flags & LINE_IGNORED) && sig->role == ROLE_INITIATING)
		return;
	/* a frame of the stack a crash printed is where it crashed: no wait */
	if ((ln->flags & LINE_CRASH_DUMP) && sig->fallout == FALLOUT_WAIT)
		return;
	/* a chained traceback the log ends in says no more than the
	 * exception it goes on from */
	if ((ln->flags & LINE_CHAINED) && sig->only_at_end && sig->role == ROLE_INITIATING)
		return;
	if (sig->only_at_end) {
		struct cut *x = cut_find(fc->src->rd->cuts, ln);

		if (x != NULL && !x->tail && x->ev->sig == sig) {
			if (x->ev == fc->held)
				fc->held = NULL;	/* the signature's again: it goes on */
		} else {
			if (x != NULL && x->ev == fc->held) {	/* ended: this opens one */
				cut_drop(fc->src->rd->cuts, (size_t)(x - fc->src->rd->cuts->v));
				fc->held = NULL;
			}
			cut_hold(fc->src, ln, event_new(sig, ln, &src->where, 1, NULL, subject, ov,
			    NULL));
		}
		fc->trouble++;
		return;
	}
	/* The first failure-like line of each rank of a file keeps its text:
	 * it is the rank's first event in most runs, which a report shows for
	 * every rank, and reading it back would open every file again (on
	 * NFS, a wait each). Every other event reads its line back. */
	readable = src->kind == SOURCE_LOG || (SOURCE_IS_STREAM(src) && src->st->spool_fd >= 0 &&
	    !src->st->spool_full);
	keep = !fc->inplace || !readable || (!minor && source_first_of_rank(fc->src, ln->rank));
	ev = event_new(sig, ln, &src->where, keep, fc->host, subject, ov, &fc->sc->b->arena);
	rec_add(fc->sc->b, REC_EVENT)->u.ev = ev;
	/* (a catch-all's match leaves the line a first half: the signature
	 * that failed on it may read it whole, joined to the next) */
	fc->trouble += !minor && !sig->fallback;
	/* (an error no entry reads says nothing where other lines tell: the
	 * watchdog's frames after a PyTorch error line the paste cut short
	 * are still the timeout) */
	if (!minor && !signature_is_lone(sig))
		fc->src->rd->trouble_seen = 1;
}

static void
gave_up(struct scanner *sc, unsigned long lineno)
{
	int code;
	const struct signature *bad = matcher_take_error(sc->matcher, &code);
	struct rec *r;

	if (bad == NULL)
		return;
	r = rec_add(sc->b, REC_GAVE_UP);
	r->u.sig = bad;
	r->pid = code;
	r->n.lineno = lineno;
}

/* --- hard-wrapped records ---------------------------------------------- */

/* A terminal, a pager or an issue form cut a long line at a fixed column
 * ("...NumelOut=524290048, Timeo" then "ut(ms)=600000) ran for ..."). A
 * line whose prefilter found a signature's words but whose regex did not
 * match is kept; when the next line of the file starts bare (no prefix,
 * no header, not indented), the two are also matched as one line, at the
 * first one's place. So is a bare line whose words were all found in it
 * but that did not match, with the line before (join_before). */
#define WRAP_MAX	4096
#define WRAP_JOINS	4

struct wrap {
	char		*text;
	size_t		 len, cap;
	unsigned long	 lineno;
	uint64_t	 offset;
	int		 joins;
	/* the candidates that did not match on it (its own, or for the line
	 * before taken as a first half, the next line's), asked whether
	 * they could go on from it before a line is joined to it: -1, none
	 * to ask (more than SCAN_ASK) */
	int		 nask;
	uint32_t	 ask[SCAN_ASK];
	size_t		 msgoff;	/* where the message they ran on begins */
};

static struct wrap *
wrap_of(struct source *src)
{
	if (src->rd->wrap == NULL)
		src->rd->wrap = xcalloc(1, sizeof *src->rd->wrap);
	return src->rd->wrap;
}

static void
wrap_release(struct source *src)
{
	if (src->rd->wrap != NULL)
		free(src->rd->wrap->text);
	free(src->rd->wrap);
	src->rd->wrap = NULL;
}

void
scan_source_release(struct source *src)
{
	if (src->rd == NULL && src->asleep == NULL)
		return;
	(void)source_reader(src);	/* awake */
	wrap_release(src);
	while (src->rd->cuts != NULL && src->rd->cuts->n > 0)
		cut_drop(src->rd->cuts, 0);
	free(src->rd->cuts);
	src->rd->cuts = NULL;
}

/* w->text = a + b, where a may be w->text itself. */
static void
wrap_keep(struct wrap *w, const char *a, size_t alen, const char *b, size_t blen,
    unsigned long lineno, uint64_t offset, int joins)
{
	if (alen + blen > WRAP_MAX) {
		w->len = 0;
		return;
	}
	if (alen + blen + 1 > w->cap) {
		char *t = xmalloc(alen + blen + 1);

		memcpy(t, a, alen);	/* before a (perhaps w->text) is freed */
		free(w->text);
		w->text = t;
		w->cap = alen + blen + 1;
	} else
		memmove(w->text, a, alen);
	memcpy(w->text + alen, b, blen);
	w->text[alen + blen] = '\0';
	w->len = alen + blen;
	w->lineno = lineno;
	w->offset = offset;
	w->joins = joins;
	w->nask = -1;
}

/* What the kept half w will ask: the last match's candidates that did not
 * match, on its message, msg in the line at base that w holds a copy of
 * (too many, or a message not in it: nothing asked). */
static void
wrap_ask(struct wrap *w, const uint32_t *v, size_t n, const char *base, const char *msg)
{
	if (w->len == 0 || n > SCAN_ASK || msg < base || msg > base + w->len)
		return;
	memcpy(w->ask, v, n * sizeof *v);
	w->nask = (int)n;
	w->msgoff = (size_t)(msg - base);
}

static int
is_bare(const struct line *ln, const char *text)
{
	return ln->msg == text && ln->msglen > 0 && text[0] != ' ' && text[0] != '\t' &&
	    !(ln->ts.flags & STAMP_TIME && !(ln->ts.flags & STAMP_INHERITED)) &&
	    (ln->rank_from == RANK_NONE || ln->rank_from == RANK_FILE ||
	    ln->rank_from == RANK_INHERIT);
}

/* trouble_only: the bare line matched context of its own, which the two
 * lines as one would say again, at the wrong place. */
static void
try_unwrap(struct scanner *sc, struct source *src, const char *text, size_t len,
    int trouble_only)
{
	struct wrap *w = src->rd->wrap;
	struct linestate scratch = src->rd->ls;
	struct line jl;
	/* joined: not in the file as read */
	struct feedctx fc = { sc, &jl, src, NULL, 0, 0, trouble_only, NULL };
	const uint32_t *failed;
	size_t nfailed;
	int found, code;

	/* no signature the kept half let through could go on: no join */
	if (w->nask >= 0 && !matcher_may_continue(sc->matcher, w->ask, (size_t)w->nask,
	    w->text + w->msgoff, w->len - w->msgoff)) {
		w->len = 0;
		return;
	}
	wrap_keep(w, w->text, w->len, text, len, w->lineno, w->offset, w->joins + 1);
	if (w->len == 0)
		return;
	/* the reader's word on this line's '\r's is not of the one kept,
	 * which another read may have brought */
	scratch.cr_free = 0;
	line_parse(&scratch, w->text, w->len, &jl);
	fc.host = line_host(src, &jl);
	jl.lineno = w->lineno;
	jl.offset = w->offset;
	jl.flags |= LINE_GLUED;
	found = matcher_match(sc->matcher, w->text, w->len, jl.msg, jl.msglen, jl.sev, jl.rank >= 0,
	    on_match, &fc);
	(void)matcher_take_error(sc->matcher, &code);	/* a joined line's: not said */
	if (found > 0 || w->joins >= WRAP_JOINS || matcher_had_candidates(sc->matcher) == 0)
		w->len = 0;
	else {
		/* (failed is set by the call, which must come first: the order
		 * in which arguments are evaluated is unspecified) */
		nfailed = matcher_failed(sc->matcher, &failed);
		wrap_ask(w, failed, nfailed, w->text, jl.msg);
	}
}

/* The end of a finished source whose last line is a half kept: a line
 * a paste cut short ("... retrieving ncclUniqueId from [0] via c10d
 * key-value"), the start of a match that no line finishes. Read as the
 * first signature asked that it is the start of (a PCRE2 partial match
 * reaching its end, over CUT_SPAN_MIN bytes of it at least: the line's
 * last few letters may begin any pattern's first word), with no facts
 * from the part that is missing. */
#define CUT_SPAN_MIN	16
static void
wrap_end(struct scanner *sc, struct source *src)
{
	struct wrap *w = src->rd->wrap;
	struct linestate scratch;
	struct line jl;
	struct feedctx fc = { sc, &jl, src, NULL, 0, 0, 1, NULL };
	const struct rulebook *rb = matcher_rulebook(sc->matcher);
	PCRE2_SIZE *ov;
	size_t g;
	int k;

	/* (a half joined to the lines after it is no line of the file; one
	 * that ends in a stop, a bracket or a quote is whole, whatever more a
	 * pattern wants after it: a cut falls inside a word) */
	if (w == NULL || w->len == 0 || w->nask <= 0 || w->joins > 0 ||
	    !isalnum((unsigned char)w->text[w->len - 1]))
		return;
	for (k = 0; k < w->nask; k++) {
		const struct signature *sig = rb->sigs[w->ask[k]];

		if (sig->role == ROLE_PROGRESS || sig->role == ROLE_CONTEXT ||
		    matcher_cut_short(sc->matcher, w->ask[k], w->text + w->msgoff,
		    w->len - w->msgoff) < CUT_SPAN_MIN)
			continue;
		scratch = src->rd->ls;
		scratch.cr_free = 0;
		line_parse(&scratch, w->text, w->len, &jl);
		fc.host = line_host(src, &jl);
		jl.lineno = w->lineno;
		jl.offset = w->offset;
		ov = xcalloc(2 * ((size_t)sig->ngroups + 1), sizeof *ov);
		for (g = 0; g < 2 * ((size_t)sig->ngroups + 1); g++)
			ov[g] = PCRE2_UNSET;
		on_match(&fc, sig, w->text, ov);
		free(ov);
		return;
	}
}

/* A line cut at a fixed column (a terminal, a pager, an issue form) may
 * be cut inside the words a signature is looked for by ("... got stuck
 * for 600 second" + "s without making progress"): neither half lets it
 * through. Two lines of one length, 60 bytes or more, the second bare,
 * show such a column; a bare line after a line of that length is then
 * matched joined to it with every signature. */
#define WRAP_COLUMN_MIN	60

/* The line before (srcread.prev): its length, and what it matched. */
#define PREV_LEN	0x1fff
#define PREV_FOUND	0x4000
#define PREV_TROUBLE	0x8000
_Static_assert(WRAP_MAX <= PREV_LEN, "srcread.prev holds a joinable line's length");

/* The line before the one at offset, prevlen bytes: in the reader's
 * buffer right before text when it is there, else read again from its
 * file into *copy (allocated; the caller frees it), so that where a read
 * ended makes no difference. NULL when it cannot be had (a stream
 * without a spool, a file cut since). */
static const char *
line_before(const struct scanner *sc, const struct source *src, const char *text,
    uint64_t offset, size_t prevlen, char **copy)
{
	char path[PATH_MAX];
	const char *p;

	*copy = NULL;
	if (text >= sc->buf && text < sc->buf + SOURCE_CHUNK &&
	    (size_t)(text - sc->buf) > prevlen && text[-1] == '\n')
		return text - prevlen - 1;
	if (offset < prevlen + 1 || (p = source_reread_path(src, path, sizeof path)) == NULL)
		return NULL;
	*copy = xmalloc(prevlen + 1);
	return read_file_at(p, *copy, prevlen + 1, offset - prevlen - 1) == (ssize_t)prevlen + 1 &&
	    (*copy)[prevlen] == '\n' ? *copy : NULL;
}

/* A bare line whose prefilter found more than matched, and that is no
 * half kept before, may be a second half whose words are all its own
 * ("...Rank 6] ProcessGroupNCCL'" + "s watchdog got stuck for 480
 * seconds without making progress ..."): it is matched joined to the
 * line before (and kept, joined, for the lines after). Whether it was. */
static int
join_before(struct scanner *sc, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, size_t prevlen, int trouble_only, int all)
{
	char *copy;
	const char *prev = line_before(sc, src, text, offset, prevlen, &copy);

	if (prev != NULL) {
		struct linestate scratch = src->rd->ls;
		struct line pl;

		wrap_keep(wrap_of(src), prev, prevlen, "", 0, lineno - 1, offset - prevlen - 1, 0);
		/* a match of the two that begins in the line before could go
		 * on from it: the signatures this line let through are asked
		 * that first (one that begins in this line failed already) */
		scratch.cr_free = 0;
		line_parse(&scratch, src->rd->wrap->text, prevlen, &pl);
		/* (all: no signature was let through, so every one is asked) */
		if (!all)
			wrap_ask(src->rd->wrap, sc->ask, sc->nask, src->rd->wrap->text, pl.msg);
		try_unwrap(sc, src, text, len, trouble_only);
	}
	free(copy);
	return prev != NULL && src->rd->wrap->len > 0;
}

/* --- lines -------------------------------------------------------------- */

/* A REC_LINE for ln, or ln added to the one before: most lines of a file
 * are of the rank, host and pid of the line before, and many of its
 * second and later (or have no time of their own), and the incident makes
 * of them what it makes of each (one slice of the timeline, the earliest
 * and the latest time). */
static void
line_rec(struct batch *b, const struct line *ln, const char *host)
{
	struct rec *r = b->n > 0 ? &b->v[b->n - 1] : NULL;
	int timed = stamp_own(&ln->ts);

	/* a rank takes a host name under 64 bytes whole, or none */
	if (ln->hostlen >= 64)
		host = NULL;
	if (r != NULL && r->kind == REC_LINE && b->noted == b->notes.n + b->notes.dropped &&
	    r->rank == ln->rank && r->pid == (int32_t)ln->pid && r->u.host == host &&
	    r->lines < UINT32_MAX && stamp_own(&r->ts) == timed &&
	    (!timed || (r->ts.sec == ln->ts.sec && ln->ts.nsec >= r->latest.nsec))) {
		/* in time order: the first is the earliest, as pending_bound
		 * (core/run.c) wants the first */
		r->lines++;
		r->n.bytes += ln->rawlen + 1;
		if (timed && ln->ts.nsec > r->latest.nsec)
			r->latest = ln->ts;
		return;
	}
	r = rec_add(b, REC_LINE);
	r->rank = ln->rank;
	r->pid = (int32_t)ln->pid;
	r->lines = 1;
	r->n.bytes = ln->rawlen + 1;
	r->ts = r->latest = ln->ts;
	r->u.host = host;
	r->hostlen = host != NULL ? (uint8_t)ln->hostlen : 0;
}

/* A line whose prefilter found more than matched may be a first half
 * (kept, with what it would ask: copied, for a join below matches
 * again); a bare line that matched no trouble may finish the half kept
 * ("...ProcessGroupNCCL.cpp:1269, inter" + "nal error, NCCL version
 * 2.14.3", whose second half is a context line of its own), or the line
 * before (join_before); column: the line before was cut at the file's
 * column (WRAP_COLUMN_MIN), so it is joined even when nothing was let
 * through. */
static void
halves(struct scanner *sc, struct source *src, const struct line *ln, const char *text,
    size_t len, int found, int trouble, int more, unsigned before, int column)
{
	const uint32_t *failed;
	int joined = 0;

	if (trouble == 0 && more) {
		sc->nask = matcher_failed(sc->matcher, &failed);
		if (sc->nask <= SCAN_ASK)
			memcpy(sc->ask, failed, sc->nask * sizeof *sc->ask);
	}
	if (src->rd->wrap != NULL && src->rd->wrap->len > 0 && trouble == 0 &&
	    is_bare(ln, text)) {
		try_unwrap(sc, src, text, len, found > 0);
		joined = src->rd->wrap->len > 0;
	} else if (src->rd->wrap != NULL)
		src->rd->wrap->len = 0;
	if (trouble == 0 && (more || column) && !joined) {
		if ((before & PREV_LEN) != 0 && !(before & PREV_TROUBLE) && is_bare(ln, text))
			joined = join_before(sc, src, text, len, ln->offset, ln->lineno,
			    before & PREV_LEN, found > 0 || (before & PREV_FOUND), !more);
		if (!joined && more) {
			wrap_keep(wrap_of(src), text, len, "", 0, ln->lineno, ln->offset, 0);
			wrap_ask(src->rd->wrap, sc->ask, sc->nask, text, ln->msg);
		}
	}
}

/* One record: the line, or its part before another rank's record spliced
 * into it. Returns where that record starts (line.h's splice), or 0. */
static size_t
scan_record(struct scanner *sc, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int inplace)
{
	struct line ln;
	struct feedctx fc = { sc, &ln, src, NULL, 0, 0, 0, NULL };
	int found, column = 0;
	unsigned before = src->rd->prev;
	size_t cand;

	line_parse(&src->rd->ls, text, len, &ln);
	ln.lineno = lineno;
	ln.offset = offset;
	if (ln.splice != 0)
		len = ln.splice;
	fc.inplace = inplace && ln.raw == text;
	fc.host = line_host(src, &ln);
	line_rec(sc->b, &ln, fc.host);
	if (src->rd->cuts != NULL && src->rd->cuts->n == 0) {	/* (none held: no lookups) */
		free(src->rd->cuts);
		src->rd->cuts = NULL;
	}
	if (src->rd->cuts != NULL)
		fc.held = cut_before(src, &ln);
	if (ln.msglen == 0) {
		if (src->rd->wrap != NULL)
			src->rd->wrap->len = 0;
		src->rd->prev = 0;	/* (a blank line joins nothing) */
		return ln.splice;
	}
	found = matcher_match(sc->matcher, text, len, ln.msg, ln.msglen, ln.sev, ln.rank >= 0, on_match,
	    &fc);
	if (fc.held != NULL)
		cut_goes_on(sc, src, &ln, fc.held);
	cand = matcher_had_candidates(sc->matcher);
	gave_up(sc, lineno);
	if ((before & PREV_LEN) >= WRAP_COLUMN_MIN && is_bare(&ln, text)) {
		if ((before & PREV_LEN) == len)
			src->rd->wrapcol = (uint16_t)len;
		column = (before & PREV_LEN) == src->rd->wrapcol && fc.trouble == 0 &&
		    !(before & PREV_TROUBLE);
	}
	if ((src->rd->wrap != NULL && src->rd->wrap->len > 0) ||
	    (fc.trouble == 0 && cand > (size_t)found) || column)
		halves(sc, src, &ln, text, len, found, fc.trouble, cand > (size_t)found, before,
		    column);
	src->rd->prev = inplace && len <= WRAP_MAX ? (uint16_t)(len |
	    (found > 0 ? PREV_FOUND : 0) | (fc.trouble > 0 ? PREV_TROUBLE : 0)) : 0;
	return ln.splice;
}

/* A line: its records, each with the line's number (a record spliced into
 * another one's line is a line of its rank of its own). The record cut
 * by the others goes on in a later line ("...NumelIn=1, Num" +
 * "[rank2]:[E1204 ...] ... timing out." + "elOut=1, ..."): the half of it
 * kept to be joined is set aside while they are read. */
static void
scan_plain(struct scanner *sc, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int inplace)
{
	struct wrap *cut = NULL;
	size_t k;

	while ((k = scan_record(sc, src, text, len, offset, lineno, inplace)) != 0) {
		if (cut == NULL && src->rd->wrap != NULL && src->rd->wrap->len > 0) {
			cut = src->rd->wrap;
			src->rd->wrap = NULL;
		}
		text += k;
		len -= k;
		offset += k;
	}
	if (cut != NULL) {
		wrap_release(src);
		src->rd->wrap = cut;
	}
}

static void	doc_keep(struct scanner *, struct source *, const char *, size_t);

/* The line(s) inside an envelope (a record's message may hold several),
 * with what it said of them. They are not the file's bytes as they are:
 * their events keep a copy. */
static void
scan_enveloped(struct scanner *sc, struct source *src, const struct envelope *env,
    uint64_t offset, unsigned long lineno)
{
	const char *p = env->text, *e = env->text + env->len, *nl;
	const char *host = env->node[0] != '\0' ? env->node : env->pod[0] != '\0' ? env->pod : NULL;
	int cr_free = src->rd->ls.cr_free;

	src->rd->ls.env_label = env->index;
	src->rd->ls.env_host = host;
	src->rd->ls.env_hostlen = host != NULL ? strlen(host) : 0;
	src->rd->ls.env_ts = env->ts;
	if (env->decoded)	/* (what the reader said is of the raw bytes) */
		src->rd->ls.cr_free = 0;
	do {
		nl = memchr(p, '\n', (size_t)(e - p));
		scan_plain(sc, src, p, (size_t)((nl != NULL ? nl : e) - p), offset, lineno, 0);
		p = nl + 1;
	} while (nl != NULL && p <= e);
	src->rd->ls.cr_free = cr_free;
	src->rd->ls.env_label = -1;
	src->rd->ls.env_host = NULL;
	src->rd->ls.env_hostlen = 0;
	memset(&src->rd->ls.env_ts, 0, sizeof src->rd->ls.env_ts);
}

static void
scan_line(struct scanner *sc, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int inplace)
{
	const struct layouts *lay = matcher_rulebook(sc->matcher)->layouts;
	struct envelope env;

	if (src->rd->document == DOC_READING) {
		doc_keep(sc, src, text, len);
		return;
	}
	if (lay != NULL && envelope_may_take(&src->rd->env, text, len) &&
	    envelope_take(lay, &src->rd->env, text, len, &env, &sc->envbuf))
		scan_enveloped(sc, src, &env, offset, lineno);
	else
		scan_plain(sc, src, text, len, offset, lineno, inplace);
}

static void
on_line(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	(void)truncated;
	scan_line(arg, src, text, len, offset, lineno, 1);
}

/* --- whole JSON documents -------------------------------------------------- */

#define DOC_MAX	(256u << 20)	/* a larger document is read as text lines */

struct docctx {
	struct scanner	*sc;
	struct source	*src;
	unsigned long	 n;
};

static void
on_record(void *arg, const struct envelope *env)
{
	struct docctx *dc = arg;

	scan_enveloped(dc->sc, dc->src, env, 0, ++dc->n);
}

/* What was kept of a document that is none after all, as text lines. */
static void
doc_as_text(struct scanner *sc, struct source *src)
{
	const char *p = src->rd->doc->s, *e = p + src->rd->doc->len, *nl;
	unsigned long n = 0;

	src->rd->document = DOC_DONE;
	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		scan_line(sc, src, p, (size_t)(nl - p), (uint64_t)(p - src->rd->doc->s), ++n, 1);
	}
	buf_release(src->rd->doc);
}

static void
doc_keep(struct scanner *sc, struct source *src, const char *text, size_t len)
{
	if (src->rd->doc->len + len + 1 > DOC_MAX) {
		notes_add(&sc->b->notes, NOTE_WARN, src->where.name, 0, 0, "a JSON document larger "
		    "than %u MiB: read as text lines, not record by record", DOC_MAX >> 20);
		buf_add(src->rd->doc, text, len);
		doc_as_text(sc, src);
		return;
	}
	buf_add(src->rd->doc, text, len);
	buf_add(src->rd->doc, "\n", 1);
}

/* At the end of what there is: read the document if it is whole (must:
 * it will not grow), else wait for the rest. */
static void
doc_end(struct scanner *sc, struct source *src, int must)
{
	struct docctx dc = { sc, src, 0 };
	unsigned long line;
	char *why;
	long n = envelope_document(matcher_rulebook(sc->matcher)->layouts, &src->rd->env,
	    src->rd->doc->s != NULL ? src->rd->doc->s : "", src->rd->doc->len, on_record, &dc, &why, &line);

	if (n < 0 && !must) {
		/* followed, it may still be written: said once, read when whole */
		if (!src->rd->doc_noted)
			notes_add(&sc->b->notes, NOTE_INFO, src->where.name, line, 0,
			    "a JSON document not complete yet (%s): read when it is", why);
		src->rd->doc_noted = 1;
		free(why);
		return;
	}
	if (n > 0) {
		src->rd->document = DOC_DONE;
		buf_release(src->rd->doc);
		return;
	}
	if (n == 0) {
		/* valid JSON, but no log: a config.json beside the logs */
		notes_add(&sc->b->notes, NOTE_INFO, src->where.name, 0, 0,
		    "a JSON document with no list of log records rankwatch knows "
		    "(rules/layouts: records.lists); left out");
		src->rd->document = DOC_DONE;
		buf_release(src->rd->doc);
		return;
	}
	notes_add(&sc->b->notes, NOTE_ERROR, src->where.name, line, 0,
	    "%s; read as text lines", why);
	free(why);
	doc_as_text(sc, src);
}

/* A dated line in buf[0..n): its stamp is the year anchor. */
static int
find_anchor(const char *buf, size_t n, int64_t *anchor)
{
	struct linestate ls;
	struct line ln;
	const char *p, *end, *nl;

	linestate_init(&ls, -1, -1, 0);
	for (p = buf, end = buf + n; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		line_parse(&ls, p, (size_t)(nl - p), &ln);
		if (ls.anchor_dated) {
			*anchor = ls.anchor;
			return 1;
		}
	}
	return 0;
}

int
scan_head_anchor(const char *head, size_t n, int64_t *anchor)
{
	return find_anchor(head, n < 4096 ? n : 4096, anchor) ||
	    (n > 4096 && find_anchor(head, n < 16384 ? n : 16384, anchor));
}

static void
on_chunk(void *arg, struct source *src, const char *p, size_t n)
{
	struct scanner *sc = arg;
	int64_t a;

	/* The file's first bytes, before any of its lines is parsed: the
	 * year of its year-less lines (run.c probed the first files). */
	if (src->head == HEAD_UNSEEN && !src->rd->ls.anchor_dated && src->rd->offset == 0 &&
	    src->rd->carrylen == 0 && memchr(p, '\n', n) != NULL) {
		src->head = HEAD_UNDATED;
		if (scan_head_anchor(p, n, &a)) {
			src->rd->ls.anchor = a;
			src->rd->ls.anchor_dated = 1;
			src->head_anchor = a;	/* for the run (run.c) */
			src->head = HEAD_DATED;
		} else if (sc->anchor_dated) {
			src->rd->ls.anchor = sc->anchor;
			src->rd->ls.anchor_dated = 1;
		} else if (sc->anchor_before != NULL &&
		    sc->anchor_before(sc->anchor_arg, src, &a)) {
			src->rd->ls.anchor = a;	/* a live run whose first files were empty */
			src->rd->ls.anchor_dated = 1;
		}
	}
	/* a whole JSON document, not lines: kept until it is complete */
	if (src->rd->document == DOC_NO && src->rd->offset == 0 && src->rd->carrylen == 0 &&
	    !src->rd->env.seen && envelope_is_document(p, n)) {
		src->rd->document = DOC_READING;
		if (src->rd->doc == NULL)
			src->rd->doc = xcalloc(1, sizeof *src->rd->doc);
	}
	matcher_scan(sc->matcher, p, n);
}

void
scanner_init(struct scanner *sc, struct matcher *m, const int64_t *anchor)
{
	sc->matcher = m;
	/* zeroed: PCRE2's JIT code reads past a line's end, in the same
	 * aligned block, and what it reads there must be defined (memcheck) */
	sc->buf = xcalloc(1, SOURCE_CHUNK + 1);
	sc->hold.src = NULL;
	sc->hold.fd = -1;
	memset(&sc->envbuf, 0, sizeof sc->envbuf);
	sc->b = NULL;
	sc->anchor = anchor != NULL ? *anchor : 0;
	sc->anchor_dated = anchor != NULL;
	sc->anchor_before = NULL;
	sc->anchor_arg = NULL;
}

void
scanner_release(struct scanner *sc)
{
	source_unhold(&sc->hold);
	free(sc->buf);
	sc->buf = NULL;
	buf_release(&sc->envbuf);
}

void
scanner_read(struct scanner *sc, struct source *src, uint64_t budget, int final,
    struct batch *b)
{
	int more = 0;

	batch_clear(b);
	b->src = src;
	sc->b = b;
	if (source_reader(src) != NULL)	/* NULL: retired, nothing is read */
		src->rd->chunk_fn = on_chunk;
	b->bytes = source_read_some(src, sc->buf, &b->notes, budget, &more, &sc->hold, on_line,
	    sc);
	matcher_scan(sc->matcher, NULL, 0);	/* sc->buf will change */
	b->last = !more;
	if (!more) {
		if (final)
			source_flush(src, on_line, sc);
		if (src->rd->document == DOC_READING)
			doc_end(sc, src, final || src->done);
		if (final) {
			wrap_end(sc, src);
			cuts_end(b, src);
		}
		if (envstate_backwards(&src->rd->env))
			notes_add(&b->notes, NOTE_WARN, src->where.name, 0, 0,
			    "its records come newest first (logcli without --forward?): a "
			    "traceback's lines are read in reverse, and the first failure is "
			    "still found by time");
		/* what a next line might continue: nothing when it has no
		 * text, or when none will follow */
		if (src->rd->wrap != NULL && (src->rd->wrap->len == 0 || final))
			wrap_release(src);
	}
	notes_to_recs(b);
	sc->b = NULL;
}

