/* view_log.c: the lines of one rank, or of all ranks merged by time.
 * The view keeps offsets, not text: it reads what is on screen from the
 * files. Matched lines are coloured by their role; log text is escaped. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "matcher.h"
#include "tui.h"
#include "xmalloc.h"

#define MERGED_MAX	2000000	/* lines a view holds at most */

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
	int		 top, sel, hscroll;
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
	char		*search;
	char		*filter;	/* show only lines containing it (like less's &) */
	struct logline	*all;		/* the unfiltered lines while a filter is on */
	size_t		 nall;
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
		matcher_match(c->m, text, len, ln.msg, ln.msglen, on_role, c);
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

		if (orig->kind == SOURCE_STDIN)
			continue;
		if (lv->rank >= 0 && orig->rank >= 0 && orig->rank != lv->rank)
			continue;
		s = source_new(orig->path, orig->name, orig->kind, orig->rank, orig->node, orig->nproc);
		s->ls.anchor = orig->ls.anchor_dated ? orig->ls.anchor : orig->mtime;
		s->ls.anchor_dated = orig->ls.anchor_dated;
		c.ls = s->ls;
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
		snprintf(out, len, "%s lines %lu-%lu", t->run->sources[a->src]->name,
		    (unsigned long)a->lineno, (unsigned long)b->lineno);
	else
		snprintf(out, len, "%s:%lu to %s:%lu", t->run->sources[a->src]->name,
		    (unsigned long)a->lineno, t->run->sources[b->src]->name,
		    (unsigned long)b->lineno);
}

void *
log_new(struct tui *t, int rank, int64_t sec, const char *file, unsigned long line)
{
	struct logview *lv = xcalloc(1, sizeof *lv);
	size_t i;
	int found = 1;
	char span[512];

	lv->rank = rank;
	lv->want_src = -1;
	if (file != NULL)
		for (i = 0; i < t->run->nsources; i++)
			if (strcmp(t->run->sources[i]->name, file) == 0) {
				lv->want_src = (int)i;
				lv->want_line = line;
				break;
			}
	lv->want_sec = sec;
	load(t, lv);
	if (file != NULL) {
		found = 0;
		for (i = 0; i < lv->n; i++)
			if (lv->v[i].lineno == line &&
			    strcmp(t->run->sources[lv->v[i].src]->name, file) == 0) {
				lv->sel = (int)i;
				found = 1;
				break;
			}
	} else if (sec > 0)
		found = go_time(lv, sec);
	lv->top = lv->sel - 3 > 0 ? lv->sel - 3 : 0;
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
	return lv;
}

static void
log_release(struct view *v)
{
	struct logview *lv = v->data;

	free(lv->v);
	free(lv->all);
	free(lv->search);
	free(lv->filter);
	free(lv);
}

static void
log_update(struct tui *t, struct view *v)
{
	struct logview *lv = v->data;
	int at_end = lv->sel >= (int)lv->n - 1;

	if (!lv->follow && !at_end)
		return;
	if (lv->filter != NULL)
		return;		/* a filtered view stays as it is */
	lv->want_end = lv->follow || at_end;
	load(t, lv);
	if (lv->follow && lv->n > 0)
		lv->sel = (int)lv->n - 1;
}

/* Read line i's text (at most cap bytes). */
static size_t
read_line(struct tui *t, const struct logline *l, char *out, size_t cap)
{
	int fd = open(t->run->sources[l->src]->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;
	size_t want = l->len < cap ? l->len : cap;

	if (fd < 0)
		return 0;
	n = pread(fd, out, want, (off_t)l->off);
	close(fd);
	return n > 0 ? (size_t)n : 0;
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

static void
log_draw(struct tui *t, struct view *v)
{
	struct logview *lv = v->data;
	char title[256], text[4096], when[40], count[96];
	int i, nvis = visible(), x;

	if (lv->skipped > 0 || lv->truncated)
		snprintf(count, sizeof count, "%zu of %zu lines (the view holds %d)", lv->n,
		    lv->total, MERGED_MAX);
	else
		snprintf(count, sizeof count, "%zu lines", lv->n);
	if (lv->rank >= 0)
		snprintf(title, sizeof title, " rank %d  %s%s%s%s", lv->rank, count,
		    lv->follow ? "  following" : "", lv->filter ? "  filter: " : "",
		    lv->filter ? lv->filter : "");
	else
		snprintf(title, sizeof title, " all ranks merged by time  %s%s%s%s", count,
		    lv->follow ? "  following" : "", lv->filter ? "  filter: " : "",
		    lv->filter ? lv->filter : "");
	tui_fill(t, 0, 0, COLS, TR_HEADER);
	tui_puts(t, 0, 0, COLS, title, TR_HEADER);
	if (lv->n == 0) {
		tui_puts(t, 2, 2, COLS - 4, "no lines for this rank (or the input cannot be re-read)", TR_DIM);
		return;
	}
	if (lv->sel >= (int)lv->n)
		lv->sel = (int)lv->n - 1;
	if (lv->sel < lv->top)
		lv->top = lv->sel;
	if (lv->sel >= lv->top + nvis)
		lv->top = lv->sel - nvis + 1;
	for (i = 0; i < nvis && lv->top + i < (int)lv->n; i++) {
		const struct logline *l = &lv->v[lv->top + i];
		struct stamp s = { l->sec, 0, STAMP_TIME };
		int y = 1 + i, sel = lv->top + i == lv->sel;
		size_t n = read_line(t, l, text, sizeof text), skip;
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
		skip = (size_t)lv->hscroll < n ? (size_t)lv->hscroll : n;
		if (lv->search && !sel && strcasestr(text, lv->search) != NULL && n < sizeof text)
			role = TR_SEARCH;
		tui_put(t, y, x, COLS - x, text + skip, n - skip, role);
	}
	{
		const struct logline *l = &lv->v[lv->sel];
		char where[512];

		snprintf(where, sizeof where, " %s:%u  line %d of %zu%s", t->run->sources[l->src]->name,
		    l->lineno, lv->sel + 1, lv->n, lv->hscroll ? "  (scrolled)" : "");
		tui_fill(t, LINES - 2, 0, COLS, TR_DIM);
		tui_puts(t, LINES - 2, 0, COLS, where, TR_DIM);
	}
}

static int
matches(struct tui *t, const struct logline *l, const char *q)
{
	char text[4096];
	size_t n = read_line(t, l, text, sizeof text - 1);

	text[n] = '\0';
	return strcasestr(text, q) != NULL;
}

static void
find(struct tui *t, struct logview *lv, int dir, int events)
{
	int i = lv->sel;

	for (;;) {
		i += dir;
		if (i < 0 || i >= (int)lv->n) {
			tui_message(t, 1, events ? "no more matched lines" : "no more matches for '%s'",
			    lv->search ? lv->search : "");
			return;
		}
		if (events ? lv->v[i].role != 0 && lv->v[i].role <= ROLE_SYMPTOM + 1 :
		    matches(t, &lv->v[i], lv->search)) {
			lv->sel = i;
			return;
		}
	}
}

/* Keep only the lines that contain the filter text (any case); an empty
 * filter shows every line again. The selection stays on its line when
 * that line is kept. */
static void
apply_filter(struct tui *t, struct logview *lv, char *q)
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
	free(lv->filter);
	lv->filter = q && *q ? q : NULL;
	if (lv->filter == NULL) {
		free(q);
		lv->v = lv->all;
		lv->n = lv->cap = lv->nall;
		lv->all = NULL;
	} else {
		lv->v = xcalloc(lv->nall + 1, sizeof *lv->v);
		for (i = 0; i < lv->nall; i++)
			if (matches(t, &lv->all[i], lv->filter))
				lv->v[n++] = lv->all[i];
		lv->n = lv->cap = n;
	}
	lv->sel = lv->top = 0;
	for (i = 0; i < lv->n; i++)
		if (lv->v[i].src == keep_src && lv->v[i].off >= keep_off) {
			lv->sel = (int)i;
			break;
		}
	if (lv->filter)
		tui_message(t, 0, "%zu of %zu lines contain '%s' (F and an empty filter show all)",
		    lv->n, lv->nall, lv->filter);
}

static int
log_key(struct tui *t, struct view *v, enum action a, int code)
{
	struct logview *lv = v->data;
	int nvis = visible();
	char *q;

	if (code == KEY_MOUSE) {
		int y = t->mouse.y;

		if (y >= 1 && lv->top + y - 1 < (int)lv->n) {
			lv->follow = 0;
			lv->sel = lv->top + y - 1;
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
		lv->hscroll += 20;
		return HR_REDRAW;
	case ACT_SEARCH:
		if ((q = tui_prompt(t, "/", NULL)) != NULL) {
			free(lv->search);
			lv->search = *q ? q : NULL;
			if (*q == '\0')
				free(q);
			else
				find(t, lv, 1, 0);
		}
		return HR_REDRAW;
	case ACT_NEXT:
	case ACT_PREV:
		if (lv->search)
			find(t, lv, a == ACT_NEXT ? 1 : -1, 0);
		return HR_REDRAW;
	case ACT_NEXTEV:
	case ACT_PREVEV:
		find(t, lv, a == ACT_NEXTEV ? 1 : -1, 1);
		return HR_REDRAW;
	case ACT_FILTER:
		q = tui_prompt(t, "filter (lines containing): ", lv->filter);
		if (q != NULL)
			apply_filter(t, lv, q);
		return HR_REDRAW;
	case ACT_FOLLOW:
		lv->follow = !lv->follow;
		if (lv->follow && lv->n > 0)
			lv->sel = (int)lv->n - 1;
		return HR_REDRAW;
	case ACT_FIRST:
		lv->follow = 0;
		lv->sel = 0;
		find(t, lv, 1, 1);
		return HR_REDRAW;
	case ACT_OPEN:
		return HR_NONE;
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
	.hints = "/ search  n/N next/prev  F filter  ]/[ matched lines  f first  P follow  h/l scroll  q back",
};
