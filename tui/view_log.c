/* view_log.c: the lines of one rank, or of all ranks merged by time.
 * The view keeps offsets, not text: it reads what is on screen from the
 * files. Matched lines are coloured by their role; log text is escaped.
 * A jump (to an event, a search match, a matched line) puts its line a
 * third of the way down with the lines around it, as less does; the
 * screen is never left blank below while the file has lines. / searches
 * in slices between key presses, so the keys never wait on it. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "matcher.h"
#include "search.h"
#include "tui.h"
#include "wrap.h"
#include "xmalloc.h"

#define MERGED_MAX	2000000	/* lines a view holds at most */
#define SEARCH_SLICE_MS	20	/* searching between two looks at the keys */
#define FD_CACHE	32	/* files a view keeps open (a merged view reads
				 * the ranks' files in turn) */

struct logline {
	uint64_t	off;
	uint32_t	len;
	uint32_t	src;
	int64_t		sec;		/* 0: no time */
	int32_t		rank;
	uint32_t	lineno;
	uint8_t		role;		/* 0 none, 1 + enum role */
};

struct logview {
	int		 rank;		/* -1: merged */
	struct logline	*v;
	size_t		 n, cap;
	int		 top, sel;
	int		 hscroll;	/* cells cut off the left of every line */
	int		 wrap;		/* long lines take as many rows as they need */
	int		 land;		/* the selection was jumped to: place it */
	int		 follow;
	/* What the view holds of the lines it was asked for: MERGED_MAX at
	 * most, around where it was opened (the line asked for, the time, the
	 * end while following; else the first ones). */
	size_t		 total;		/* lines of this view in the files */
	size_t		 skipped;	/* of them, before the first one held */
	int		 truncated;	/* lines after the last one held were left out */
	int		 want_src;	/* the line to open at (-1: none) */
	unsigned long	 want_line;
	int64_t		 want_sec;	/* the time to open at (0: none) */
	int		 want_end;	/* open at the end (following) */
	int		 reached;	/* what it was opened at is held, */
	size_t		 at;		/* here */
	struct pattern	*search;
	struct {			/* a search under way */
		int	 active;
		int	 dir;
		size_t	 pos;		/* the next line to look at */
		size_t	 done;		/* lines looked at */
		int	 wrapped;
	} s;
	struct pattern	*filter;	/* show only lines that match (like less's &) */
	struct logline	*all;		/* the unfiltered lines while a filter is on */
	size_t		 nall;
	struct {			/* files kept open for reading lines */
		int		 fd;	/* -1: a free slot */
		uint32_t	 src;
	} fds[FD_CACHE];
	int		 fd_next;	/* the slot to reuse next */
	char		*text;		/* the line last read */
	size_t		 textcap;
};

struct collect {
	struct tui	*t;
	struct logview	*lv;
	struct matcher	*m;
	struct linestate ls;
	uint32_t	 src;
	int		 best;
};

static void
on_role(void *arg, const struct signature *sig, const char *subject, const PCRE2_SIZE *ov)
{
	struct collect *c = arg;

	(void)subject;
	(void)ov;
	/* a traceback's frame, alone, says nothing (only_at_end: what it
	 * says depends on where the log ends, core/scan.c), nor does a
	 * launcher's word that a process aborted (last_resort) */
	if (sig->only_at_end || sig->last_resort)
		return;
	/* the strongest role wins: initiating < collateral < symptom < ... */
	if (c->best == 0 || (int)sig->role + 1 < c->best)
		c->best = (int)sig->role + 1;
}

static void
on_line(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct collect *c = arg;
	struct logview *lv = c->lv;
	struct line ln;
	struct logline *l;

	(void)src;
	(void)truncated;
	line_parse(&c->ls, text, len, &ln);
	if (lv->rank >= 0 && ln.rank != lv->rank)
		return;
	lv->total++;
	if (lv->n >= MERGED_MAX) {
		/* held already, with a quarter of the view after it: done */
		if (lv->reached && lv->at < MERGED_MAX / 4 * 3) {
			lv->truncated = 1;
			return;
		}
		/* not there yet, or too near the end: the first half goes */
		memmove(lv->v, lv->v + MERGED_MAX / 2,
		    (lv->n - MERGED_MAX / 2) * sizeof *lv->v);
		lv->n -= MERGED_MAX / 2;
		lv->skipped += MERGED_MAX / 2;
		lv->at -= lv->reached ? MERGED_MAX / 2 : 0;
	}
	XGROW(lv->v, lv->cap, lv->n + 1);
	l = &lv->v[lv->n++];
	l->off = offset;
	l->len = (uint32_t)len;
	l->src = c->src;
	l->sec = (ln.ts.flags & STAMP_TIME) ? ln.ts.sec : 0;
	l->rank = ln.rank;
	l->lineno = (uint32_t)lineno;
	c->best = 0;
	if (ln.msglen > 0)
		matcher_match(c->m, text, len, ln.msg, ln.msglen, ln.sev, ln.rank >= 0, on_role, c);
	l->role = (uint8_t)c->best;
	if (!lv->reached && ((lv->want_src >= 0 && (int)c->src == lv->want_src &&
	    lineno >= lv->want_line) ||
	    (lv->want_src < 0 && lv->want_sec > 0 && l->sec >= lv->want_sec))) {
		lv->reached = 1;
		lv->at = lv->n - 1;
	}
}

static int
line_cmp(const void *a, const void *b)
{
	const struct logline *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void
load(struct tui *t, struct logview *lv)
{
	struct collect c;
	struct notes ns;
	char *buf = xmalloc(SOURCE_CHUNK);
	size_t i;

	notes_init(&ns);
	memset(&c, 0, sizeof c);
	c.t = t;
	c.lv = lv;
	c.m = matcher_new(t->rb);
	lv->n = lv->total = lv->skipped = 0;
	lv->truncated = 0;
	lv->reached = lv->want_src < 0 && lv->want_sec == 0 && !lv->want_end;
	for (i = 0; i < t->run->nsources; i++) {
		struct source *orig = t->run->sources[i], *s;
		char pbuf[PATH_MAX];
		const char *path;
		int64_t anchor = 0;
		int dated = 0, known;

		/* a stream is read again from its spool, as a file */
		if ((path = source_reread_path(orig, pbuf, sizeof pbuf)) == NULL)
			continue;
		if (lv->rank >= 0 && orig->rank >= 0 && orig->rank != lv->rank)
			continue;
		s = source_new(path, orig->where.name,
		    SOURCE_IS_STREAM(orig) ? SOURCE_LOG : orig->kind, orig->rank, orig->node,
		    orig->nproc);
		known = source_anchor(orig, &anchor, &dated);	/* 0: retired */
		/* (an anchor not dated is the file's mtime, read with it) */
		source_reader(s)->ls.anchor = known && (dated || SOURCE_IS_STREAM(orig)) ?
		    anchor : 0;
		s->rd->ls.anchor_dated = known && dated;
		c.ls = s->rd->ls;
		c.src = (uint32_t)i;
		source_read(s, buf, &ns, on_line, &c);
		source_flush(s, on_line, &c);
		source_free(s);
	}
	if (lv->rank < 0 && lv->n > 1)
		qsort(lv->v, lv->n, sizeof *lv->v, line_cmp);
	matcher_free(c.m);
	notes_release(&ns);
	free(buf);
}

/* Select the first line at or after sec; 0 (the last line selected)
 * when there is none. */
static int
go_time(struct logview *lv, int64_t sec)
{
	size_t i;

	for (i = 0; i < lv->n; i++)
		if (lv->v[i].sec >= sec && lv->v[i].sec != 0) {
			lv->sel = (int)i;
			return 1;
		}
	lv->sel = lv->n > 0 ? (int)lv->n - 1 : 0;
	return 0;
}

/* Where what the view holds starts and ends, for the messages. */
static void
held_span(struct tui *t, const struct logview *lv, char *out, size_t len)
{
	const struct logline *a = &lv->v[0], *b = &lv->v[lv->n - 1];

	if (a->src == b->src)
		snprintf(out, len, "%s lines %lu-%lu", t->run->sources[a->src]->where.name,
		    (unsigned long)a->lineno, (unsigned long)b->lineno);
	else
		snprintf(out, len, "%s:%lu to %s:%lu", t->run->sources[a->src]->where.name,
		    (unsigned long)a->lineno, t->run->sources[b->src]->where.name,
		    (unsigned long)b->lineno);
}

/* (Re)fill lv with rank's lines (-1: all) and select file:line, or the
 * first line at or after sec, or the first line. 0 when file:line is not
 * among them. */
static int
open_at(struct tui *t, struct logview *lv, int rank, int64_t sec, const char *file,
    unsigned long line)
{
	size_t i;
	int found = 1;
	char span[512];

	lv->rank = rank;
	lv->want_src = -1;
	lv->want_sec = sec;
	lv->want_end = 0;
	lv->sel = lv->top = 0;
	if (file != NULL)
		for (i = 0; i < t->run->nsources; i++)
			if (strcmp(t->run->sources[i]->where.name, file) == 0) {
				lv->want_src = (int)i;
				lv->want_line = line;
				break;
			}
	load(t, lv);
	if (file != NULL) {
		found = 0;
		for (i = 0; i < lv->n; i++)
			if (lv->v[i].lineno == line &&
			    strcmp(t->run->sources[lv->v[i].src]->where.name, file) == 0) {
				lv->sel = (int)i;
				found = 1;
				break;
			}
		if (!found && rank >= 0)
			return 0;	/* the caller tries all ranks merged */
	} else if (sec > 0)
		found = go_time(lv, sec);
	lv->land = 1;
	if (lv->n > 0 && (lv->skipped > 0 || lv->truncated)) {
		held_span(t, lv, span, sizeof span);
		if (!found && file != NULL)
			tui_message(t, 1, "%s:%lu is not among the %zu lines this view holds (%s of %zu)",
			    file, line, lv->n, span, lv->total);
		else if (!found)
			tui_message(t, 1, "no line at or after that time among the %zu lines this view "
			    "holds (%s of %zu)", lv->n, span, lv->total);
		else
			tui_message(t, 1, "this view holds %zu of %zu lines (at most %d): %s",
			    lv->n, lv->total, MERGED_MAX, span);
	} else if (!found && file != NULL)
		tui_message(t, 1, "%s:%lu is not in this view (the file changed?)", file, line);
	return 1;
}

void *
log_new(struct tui *t, int rank, int64_t sec, const char *file, unsigned long line)
{
	struct logview *lv = xcalloc(1, sizeof *lv);
	int i;

	for (i = 0; i < FD_CACHE; i++)
		lv->fds[i].fd = -1;
	/* a line the rank's view does not hold (a launcher's line about the
	 * rank, with no rank of its own) is shown among all ranks */
	if (!open_at(t, lv, rank, sec, file, line)) {
		open_at(t, lv, -1, sec, file, line);
		tui_message(t, 0, "%s:%lu has no rank of its own: shown among all ranks", file, line);
	}
	return lv;
}

void *
log_new_rank(struct tui *t, int rank)
{
	const struct rankstate *rs = incident_rank(t->run->incident, rank);
	const struct event *ev = t->an->initiating;
	struct logview *lv;

	if (ev != NULL && ev->rank == rank)	/* where it failed first */
		return log_new(t, rank, 0, event_file(ev), ev->lineno);
	if (rs != NULL && rs->first_event != NULL)
		return log_new(t, rank, 0, event_file(rs->first_event), rs->first_event->lineno);
	/* no event: where it stopped is what matters (a silent rank in a hang) */
	lv = log_new(t, rank, 0, NULL, 0);
	lv->sel = lv->n > 0 ? (int)lv->n - 1 : 0;
	lv->land = 1;
	if (rs != NULL)
		tui_message(t, 0, "rank %d has no event: its last line", rank);
	return lv;
}

static void
log_release(struct view *v)
{
	struct logview *lv = v->data;
	int i;

	for (i = 0; i < FD_CACHE; i++)
		if (lv->fds[i].fd >= 0)
			close(lv->fds[i].fd);
	free(lv->v);
	free(lv->all);
	free(lv->text);
	pattern_free(lv->search);
	pattern_free(lv->filter);
	free(lv);
}

static void
log_update(struct tui *t, struct view *v)
{
	struct logview *lv = v->data;
	int at_end = lv->sel >= (int)lv->n - 1;

	if (!lv->follow && !at_end)
		return;
	if (lv->filter != NULL || lv->s.active)
		return;		/* a filtered view, or one being searched, stays */
	lv->want_end = lv->follow || at_end;
	load(t, lv);
	if (lv->follow && lv->n > 0)
		lv->sel = (int)lv->n - 1;
}

/* An open descriptor of source src, from the view's few kept open. */
static int
fd_of(struct tui *t, struct logview *lv, uint32_t src)
{
	char pbuf[PATH_MAX];
	const char *path;
	int i;

	for (i = 0; i < FD_CACHE; i++)
		if (lv->fds[i].fd >= 0 && lv->fds[i].src == src)
			return lv->fds[i].fd;
	i = lv->fd_next;
	lv->fd_next = (lv->fd_next + 1) % FD_CACHE;
	if (lv->fds[i].fd >= 0)
		close(lv->fds[i].fd);
	path = source_reread_path(t->run->sources[src], pbuf, sizeof pbuf);
	lv->fds[i].fd = path == NULL ? -1 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	lv->fds[i].src = src;
	return lv->fds[i].fd;
}

/* Read line l whole into lv->text (NUL terminated); its length. */
static size_t
read_line(struct tui *t, struct logview *lv, const struct logline *l)
{
	ssize_t n;
	int fd = fd_of(t, lv, l->src);

	if (lv->textcap < (size_t)l->len + 1) {
		lv->textcap = (size_t)l->len + 1;
		lv->text = xrealloc(lv->text, lv->textcap);
	}
	n = fd >= 0 ? pread(fd, lv->text, l->len, (off_t)l->off) : -1;
	n = n > 0 ? n : 0;
	lv->text[n] = '\0';
	return (size_t)n;
}

static int
matches(struct tui *t, struct logview *lv, const struct logline *l, struct pattern *p)
{
	size_t n = read_line(t, lv, l), so, eo;

	return pattern_find(p, lv->text, n, 0, &so, &eo);
}

static enum theme_role
line_role(const struct logline *l)
{
	switch (l->role) {
	case ROLE_INITIATING + 1:
		return TR_INITIATING;
	case ROLE_COLLATERAL + 1:
		return TR_COLLATERAL;
	case ROLE_SYMPTOM + 1:
		return TR_SYMPTOM;
	default:
		return TR_NORMAL;
	}
}

static int
visible(void)
{
	return LINES - 3 > 1 ? LINES - 3 : 1;
}

/* Cells before a line's text: its time, and its rank when merged. */
static int
gutter(const struct logview *lv)
{
	return 9 + (lv->rank < 0 ? 6 : 0);
}

/* Rows line i takes on screen. */
static int
rows_of(struct tui *t, struct logview *lv, size_t i)
{
	size_t n, off = 0;
	int rows = 0, w = COLS - gutter(lv);

	if (!lv->wrap || w < 1)
		return 1;
	n = read_line(t, lv, &lv->v[i]);
	do {
		size_t k = tui_fit(t, lv->text + off, n - off, w, NULL);

		off += k ? k : 1;
		rows++;
	} while (off < n && rows < 1000);
	return rows;
}

/* The first line to draw so that the screen holds sel where the keys put
 * it: a jump puts it a third of the way down; moving keeps it on screen;
 * and no rows are left blank below while there are lines above. */
static void
place(struct tui *t, struct logview *lv)
{
	int nvis = visible(), rows, i;

	if (lv->sel >= (int)lv->n)
		lv->sel = (int)lv->n - 1;
	if (lv->sel < 0)
		lv->sel = 0;
	if (lv->land) {
		/* as many rows above it as a third of the screen */
		for (i = lv->sel, rows = 0; i > 0 &&
		    rows + rows_of(t, lv, (size_t)i - 1) <= nvis / 3; i--)
			rows += rows_of(t, lv, (size_t)i - 1);
		lv->top = i;
		lv->land = 0;
	}
	if (lv->sel < lv->top)
		lv->top = lv->sel;
	/* the selected line ends on screen: walking back from it, at most a
	 * screen of lines (each takes a row or more), never the whole view */
	for (i = lv->sel, rows = rows_of(t, lv, (size_t)i); i > lv->top &&
	    rows + rows_of(t, lv, (size_t)i - 1) <= nvis; i--)
		rows += rows_of(t, lv, (size_t)i - 1);
	if (i > lv->top)
		lv->top = i;
	/* the screen filled to the end of the lines */
	for (rows = 0, i = lv->top; i < (int)lv->n && rows < nvis; i++)
		rows += rows_of(t, lv, (size_t)i);
	while (rows < nvis && lv->top > 0) {
		int r = rows_of(t, lv, (size_t)lv->top - 1);

		if (rows + r > nvis)
			break;
		rows += r;
		lv->top--;
	}
}

static void
log_draw(struct tui *t, struct view *v)
{
	struct logview *lv = v->data;
	char title[512], when[40], count[96];
	int i, y, nvis = visible(), x;

	if (lv->skipped > 0 || lv->truncated)
		snprintf(count, sizeof count, "%zu of %zu lines (the view holds %d)", lv->n,
		    lv->total, MERGED_MAX);
	else
		snprintf(count, sizeof count, "%zu lines", lv->n);
	if (lv->rank >= 0)
		snprintf(title, sizeof title, " rank %d  %s%s%s%s%s", lv->rank, count,
		    lv->follow ? "  following" : "", lv->wrap ? "  wrapped" : "",
		    lv->filter ? "  filter: " : "", lv->filter ? pattern_text(lv->filter) : "");
	else
		snprintf(title, sizeof title, " all ranks merged by time  %s%s%s%s%s", count,
		    lv->follow ? "  following" : "", lv->wrap ? "  wrapped" : "",
		    lv->filter ? "  filter: " : "", lv->filter ? pattern_text(lv->filter) : "");
	tui_fill(t, 0, 0, COLS, TR_HEADER);
	tui_puts(t, 0, 0, COLS, title, TR_HEADER);
	if (lv->n == 0) {
		tui_puts(t, 2, 2, COLS - 4, lv->filter ? "no line matches the filter (F and an "
		    "empty filter show all)" : "no lines for this rank (or the input cannot be "
		    "re-read)", TR_DIM);
		return;
	}
	place(t, lv);
	for (i = lv->top, y = 1; i < (int)lv->n && y <= nvis; i++) {
		const struct logline *l = &lv->v[i];
		struct stamp s = { l->sec, 0, STAMP_TIME };
		int sel = i == lv->sel, w;
		size_t n = read_line(t, lv, l), off;
		enum theme_role role = sel ? TR_SELECTION : line_role(l);

		if (sel)
			tui_fill(t, y, 0, COLS, TR_SELECTION);
		if (l->sec)
			stamp_format(&s, 0, when, sizeof when);
		else
			snprintf(when, sizeof when, "        ");
		x = tui_puts(t, y, 0, 9, when, sel ? TR_SELECTION : TR_DIM) + 1;
		if (lv->rank < 0) {
			char rk[16];

			snprintf(rk, sizeof rk, "%5d ", l->rank);
			x += tui_puts(t, y, x, 6, l->rank >= 0 ? rk : "    - ", sel ? TR_SELECTION : TR_DIM);
		}
		w = COLS - x;
		if (!lv->wrap) {
			off = tui_fit(t, lv->text, n, lv->hscroll, NULL);
			tui_put_marked(t, y, x, w, lv->text, n, off, role, lv->search);
			y++;
			continue;
		}
		for (off = 0; y <= nvis; y++) {
			size_t k = tui_fit(t, lv->text + off, n - off, w, NULL);

			if (sel)
				tui_fill(t, y, 0, COLS, TR_SELECTION);
			tui_put_marked(t, y, x, w, lv->text, off + k, off, role, lv->search);
			off += k ? k : 1;
			if (off >= n) {
				y++;
				break;
			}
		}
	}
	{
		const struct logline *l = &lv->v[lv->sel];
		char where[512];

		snprintf(where, sizeof where, " %s:%u  line %d of %zu%s",
		    t->run->sources[l->src]->where.name, l->lineno, lv->sel + 1, lv->n,
		    !lv->wrap && lv->hscroll ? "  (scrolled: 0 goes back)" : "");
		tui_fill(t, LINES - 2, 0, COLS, TR_DIM);
		tui_puts(t, LINES - 2, 0, COLS, where, TR_DIM);
	}
}

/* ]/[: the next matched line (initiating, collateral or symptom). */
static void
find_event(struct tui *t, struct logview *lv, int dir)
{
	int i;

	for (i = lv->sel + dir; i >= 0 && i < (int)lv->n; i += dir)
		if (lv->v[i].role != 0 && lv->v[i].role <= ROLE_SYMPTOM + 1) {
			lv->sel = i;
			lv->land = 1;
			return;
		}
	tui_message(t, 1, "no more matched lines %s", dir > 0 ? "below" : "above");
}

/* Start looking for the search pattern from the line after (dir 1) or
 * before (-1) the selection; log_work does it in slices. */
static void
search_start(struct tui *t, struct logview *lv, int dir)
{
	(void)t;
	if (lv->n == 0)
		return;
	lv->s.active = 1;
	lv->s.dir = dir;
	lv->s.done = 0;
	lv->s.wrapped = 0;
	lv->s.pos = (size_t)((lv->sel + dir + (int)lv->n) % (int)lv->n);
	if ((dir > 0 && lv->s.pos == 0 && lv->sel == (int)lv->n - 1) ||
	    (dir < 0 && lv->s.pos == lv->n - 1 && lv->sel == 0))
		lv->s.wrapped = 1;
}

static long
ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000 + (b.tv_nsec - a->tv_nsec) / 1000000;
}

/* A slice of the search: until it finds, has looked at every line, or
 * has used SEARCH_SLICE_MS. 1 while it goes on, 0 when it has ended now,
 * -1 when there is none. */
static int
log_work(struct tui *t, struct view *v)
{
	struct logview *lv = v->data;
	struct timespec t0;
	size_t k;

	if (!lv->s.active)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; lv->s.done < lv->n; k++) {
		if ((k & 255) == 255 && ms_since(&t0) >= SEARCH_SLICE_MS)
			break;
		if (matches(t, lv, &lv->v[lv->s.pos], lv->search)) {
			lv->sel = (int)lv->s.pos;
			lv->land = 1;
			lv->s.active = 0;
			if (lv->s.wrapped)
				tui_message(t, 0, lv->s.dir > 0 ? "search hit BOTTOM, continuing at TOP" :
				    "search hit TOP, continuing at BOTTOM");
			return 0;
		}
		lv->s.done++;
		if (lv->s.dir > 0 && ++lv->s.pos == lv->n) {
			lv->s.pos = 0;
			lv->s.wrapped = 1;
		} else if (lv->s.dir < 0 && lv->s.pos-- == 0) {
			lv->s.pos = lv->n - 1;
			lv->s.wrapped = 1;
		}
	}
	if (lv->s.done >= lv->n) {
		lv->s.active = 0;
		tui_message(t, 1, "pattern not found: %s", pattern_text(lv->search));
		return 0;
	}
	tui_message(t, 0, "searching for %s: %zu%% (%zu of %zu lines) - Esc or ^C stops",
	    pattern_text(lv->search), lv->s.done * 100 / lv->n, lv->s.done, lv->n);
	return 1;
}

/* Keep only the lines that match the filter; an empty filter shows every
 * line again. The selection stays on its line when that line is kept. */
static void
apply_filter(struct tui *t, struct logview *lv, struct pattern *f)
{
	size_t i, n = 0;
	uint64_t keep_off = lv->n ? lv->v[lv->sel].off : 0;
	uint32_t keep_src = lv->n ? lv->v[lv->sel].src : 0;

	if (lv->all == NULL) {
		lv->all = lv->v;
		lv->nall = lv->n;
		lv->v = NULL;
	} else
		free(lv->v);
	pattern_free(lv->filter);
	lv->filter = f;
	if (lv->filter == NULL) {
		lv->v = lv->all;
		lv->n = lv->cap = lv->nall;
		lv->all = NULL;
	} else {
		lv->v = xcalloc(lv->nall + 1, sizeof *lv->v);
		for (i = 0; i < lv->nall; i++)
			if (matches(t, lv, &lv->all[i], lv->filter))
				lv->v[n++] = lv->all[i];
		lv->n = lv->cap = n;
	}
	lv->sel = lv->top = 0;
	for (i = 0; i < lv->n; i++)
		if (lv->v[i].src == keep_src && lv->v[i].off >= keep_off) {
			lv->sel = (int)i;
			break;
		}
	lv->land = 1;
	if (lv->filter)
		tui_message(t, 0, "%zu of %zu lines match %s (F and an empty filter show all)",
		    lv->n, lv->nall, pattern_text(lv->filter));
}

/* Enter: the selected line whole, wrapped at words, on a page of its own. */
static void
show_line(struct tui *t, struct logview *lv)
{
	const struct logline *l = &lv->v[lv->sel];
	struct stamp s = { l->sec, 0, STAMP_TIME };
	struct strlist w = { NULL, 0 };
	struct buf b = BUF_INIT;
	char when[40], title[600];
	size_t i;

	read_line(t, lv, l);
	if (l->sec)
		stamp_format(&s, 1, when, sizeof when);
	else
		snprintf(when, sizeof when, "no time");
	snprintf(title, sizeof title, "%s:%u", t->run->sources[l->src]->where.name, l->lineno);
	if (l->rank >= 0)
		buf_printf(&b, "rank %d  %s  %u bytes\n\n", l->rank, when, l->len);
	else
		buf_printf(&b, "no rank  %s  %u bytes\n\n", when, l->len);
	wrap_text(lv->text, COLS > 8 ? COLS - 4 : 4, &w);
	for (i = 0; i < w.n; i++)
		buf_printf(&b, "  %s\n", w.v[i]);
	wrap_free(&w);
	tui_push(t, &text_ops, text_new(t, title, buf_detach(&b)));
}

/* m: this rank's lines or all ranks', at the same line. */
static void
toggle_merge(struct tui *t, struct logview *lv)
{
	const struct logline *l = lv->n ? &lv->v[lv->sel] : NULL;
	char *file = l ? xstrdup(t->run->sources[l->src]->where.name) : NULL;
	unsigned long line = l ? l->lineno : 0;
	int rank = lv->rank >= 0 ? -1 : l && l->rank >= 0 ? l->rank : -2;

	if (rank == -2) {
		tui_message(t, 1, "this line has no rank: m shows one rank's lines from a line "
		    "of that rank");
		free(file);
		return;
	}
	if (lv->filter != NULL)
		apply_filter(t, lv, NULL);
	lv->s.active = 0;
	open_at(t, lv, rank, 0, file, line);
	tui_message(t, 0, rank < 0 ? "all ranks merged by time (m: this rank only)" :
	    "rank %d only (m: all ranks merged)", rank);
	free(file);
}

static int
log_key(struct tui *t, struct view *v, enum action a, int code)
{
	struct logview *lv = v->data;
	int nvis = visible();
	struct pattern *p;

	if (lv->s.active && (a == ACT_BACK || a == ACT_INTR)) {
		lv->s.active = 0;
		tui_message(t, 0, "search stopped after %zu of %zu lines", lv->s.done, lv->n);
		return HR_REDRAW;
	}
	if (code == KEY_MOUSE) {
		int y = t->mouse.y, i, rows;

		for (i = lv->top, rows = 1; i < (int)lv->n && rows <= nvis; i++) {
			int r = rows_of(t, lv, (size_t)i);

			if (y >= rows && y < rows + r) {
				lv->follow = 0;
				lv->sel = i;
				break;
			}
			rows += r;
		}
		return HR_REDRAW;
	}
	switch (a) {
	case ACT_UP:
		lv->follow = 0;
		if (lv->sel > 0)
			lv->sel--;
		return HR_REDRAW;
	case ACT_DOWN:
		if (lv->sel + 1 < (int)lv->n)
			lv->sel++;
		return HR_REDRAW;
	case ACT_PGUP:
		lv->follow = 0;
		lv->sel = lv->sel - nvis > 0 ? lv->sel - nvis : 0;
		lv->top = lv->top - nvis > 0 ? lv->top - nvis : 0;
		return HR_REDRAW;
	case ACT_PGDN:
		lv->sel = lv->sel + nvis < (int)lv->n ? lv->sel + nvis : (int)lv->n - 1;
		lv->top += nvis;
		return HR_REDRAW;
	case ACT_TOP:
		lv->follow = 0;
		lv->sel = lv->top = 0;
		return HR_REDRAW;
	case ACT_BOTTOM:
		lv->sel = (int)lv->n - 1;
		return HR_REDRAW;
	case ACT_LEFT:
		lv->hscroll = lv->hscroll > 20 ? lv->hscroll - 20 : 0;
		return HR_REDRAW;
	case ACT_RIGHT:
		if (lv->wrap)
			tui_message(t, 0, "lines are wrapped (w cuts them again)");
		else
			lv->hscroll += 20;
		return HR_REDRAW;
	case ACT_LINE0:
		lv->hscroll = 0;
		return HR_REDRAW;
	case ACT_LINEEND:
		if (lv->n > 0 && !lv->wrap) {
			size_t n = read_line(t, lv, &lv->v[lv->sel]);
			int cells = 0, w = COLS - gutter(lv);

			tui_fit(t, lv->text, n, 1 << 30, &cells);
			lv->hscroll = cells > w ? cells - w + 1 : 0;
		}
		return HR_REDRAW;
	case ACT_WRAP:
		lv->wrap = !lv->wrap;
		lv->hscroll = 0;
		lv->land = 1;
		tui_message(t, 0, lv->wrap ? "long lines wrapped (w cuts them)" :
		    "long lines cut (w wraps them; l and $ scroll)");
		return HR_REDRAW;
	case ACT_SEARCH:
		if (tui_ask_pattern(t, "/", NULL, &p) > 0) {
			pattern_free(lv->search);
			lv->search = p;
			search_start(t, lv, 1);
		}
		return HR_REDRAW;
	case ACT_NEXT:
	case ACT_PREV:
		if (lv->search == NULL)
			tui_message(t, 0, "no search yet: / searches");
		else
			search_start(t, lv, a == ACT_NEXT ? 1 : -1);
		return HR_REDRAW;
	case ACT_NEXTEV:
	case ACT_PREVEV:
		find_event(t, lv, a == ACT_NEXTEV ? 1 : -1);
		return HR_REDRAW;
	case ACT_FILTER:
		if (tui_ask_pattern(t, "filter (lines matching): ", lv->filter ?
		    pattern_text(lv->filter) : NULL, &p) >= 0)
			apply_filter(t, lv, p);		/* empty: every line again */
		return HR_REDRAW;
	case ACT_FOLLOW:
		lv->follow = !lv->follow;
		if (lv->follow && lv->n > 0)
			lv->sel = (int)lv->n - 1;
		return HR_REDRAW;
	case ACT_FIRST:
		lv->follow = 0;
		lv->sel = -1;
		find_event(t, lv, 1);
		if (lv->sel < 0)
			lv->sel = 0;
		return HR_REDRAW;
	case ACT_MERGE:
		toggle_merge(t, lv);
		return HR_REDRAW;
	case ACT_OPEN:
		if (lv->n > 0)
			show_line(t, lv);
		return HR_REDRAW;
	default:
		return HR_UNHANDLED;
	}
}

const struct view_ops log_ops = {
	.name = "log",
	.draw = log_draw,
	.key = log_key,
	.release = log_release,
	.update = log_update,
	.work = log_work,
	.hints = "/ search  n/N next  ]/[ matched  Enter whole line  w wrap  m merge  F filter  P follow  q back",
};
