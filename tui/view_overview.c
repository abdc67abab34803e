/* view_overview.c: the home screen. The run and its verdict on top, the rank
 * timeline (one row per rank, time left to right; or a compact grid of one
 * cell per rank), the diagnoses below. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rows.h"
#include "timeline.h"
#include "tui.h"
#include "wrap.h"
#include "xmalloc.h"


struct overview {
	int			 focus;		/* 0 timeline, 1 diagnoses */
	struct rows		 r;		/* the ranks shown, the cursor's row */
	int			 top;		/* first row shown */
	int			 col;		/* time cursor */
	int			 dsel;		/* selected diagnosis */
	struct timeline_view	 tv;
	int			 fitted;	/* the view follows the whole run */
	int			 compact;
	int			 sort_auto;	/* by role once there is trouble, until the user sorts */
	int			 cols;		/* the timeline's width at the last draw */
	int			 col_set;	/* the user put the time cursor: Enter opens there */
};

static const char *const glyph_utf8[CELL__COUNT] = {
	" ", "\xc2\xb7", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x85", "\xe2\x96\x87",
	"\xe2\x96\xaa", "!", "~", "\xe2\x9c\x96"
};
static const char glyph_ascii[CELL__COUNT] = { ' ', '.', '_', '-', '=', '#', '|', '!', '~', 'X' };

static enum theme_role
cell_role(enum cell c)
{
	switch (c) {
	case CELL_INITIATING:
		return TR_INITIATING;
	case CELL_COLLATERAL:
		return TR_COLLATERAL;
	case CELL_SYMPTOM:
		return TR_SYMPTOM;
	case CELL_QUIET:
	case CELL_END:
	case CELL_NONE:
		return TR_DIM;
	default:
		return TR_ACTIVITY;
	}
}

static int
reading(const void *arg, int rank)
{
	return tui_rank_reading(arg, rank);
}

static void
build_rows(struct tui *t, struct overview *o)
{
	rows_build(&o->r, t->run->incident, t->an, reading, t);
}

void *
overview_new(struct tui *t)
{
	struct overview *o = xcalloc(1, sizeof *o);

	o->fitted = 1;
	o->sort_auto = 1;
	o->r.sort = t->an->verdict == VERDICT_HEALTHY ? SORT_RANK : SORT_ROLE;
	build_rows(t, o);
	return o;
}

static void
overview_release(struct view *v)
{
	struct overview *o = v->data;

	rows_release(&o->r);
	free(o);
}

static void
overview_update(struct tui *t, struct view *v)
{
	struct overview *o = v->data;

	if (o->sort_auto)
		o->r.sort = t->an->verdict == VERDICT_HEALTHY ? SORT_RANK : SORT_ROLE;
	build_rows(t, o);
	if (o->fitted && o->cols > 0)
		timeline_fit(t->run->incident, o->cols, &o->tv);
}

/* --- drawing ------------------------------------------------------------ */


static void
draw_header(struct tui *t)
{
	const struct incident *in = t->run->incident;
	char line[512], sz[32], a[40], b[40], pct[32];
	buf_format_bytes(in->bytes, sz, sizeof sz);
	stamp_format(&in->first, 1, a, sizeof a);
	stamp_format(&in->last, 0, b, sizeof b);
	if (t->loading)
		snprintf(pct, sizeof pct, "loading %zu/%zu files", t->run->cursor,
		    t->run->nsources);
	else
		snprintf(pct, sizeof pct, !t->watching ? "finished" :
		    run_streams_ended(t->run) ? "stream ended" : "following");
	if (COLS < 120)
		stamp_format(&in->first, 0, a, sizeof a);
	{
		const char *dot = t->utf8 ? " \xc2\xb7 " : ", ", *dash = t->utf8 ? "\xe2\x80\x93" : "-";
		char right[256];
		int rw, lw;

		/* The state on the right always shows; the run's name gives way. */
		snprintf(right, sizeof right, "%zu ranks%s%zu file%s%s%s%s%s%s%s%s",
		    incident_active_ranks(in), dot, t->run->nsources,
		    t->run->nsources == 1 ? "" : "s", dot, sz, dot, a, dash, b, dot);
		if ((int)strlen(right) + (int)strlen(pct) + 24 > COLS)
			snprintf(right, sizeof right, "%zu ranks%s%zu file%s%s%s%s",
			    incident_active_ranks(in), dot, t->run->nsources,
			    t->run->nsources == 1 ? "" : "s", dot, sz, dot);
		if ((int)strlen(right) + (int)strlen(pct) + 24 > COLS)
			snprintf(right, sizeof right, "%zu ranks%s", incident_active_ranks(in), dot);
		strncat(right, pct, sizeof right - strlen(right) - 1);
		rw = (int)wrap_cells(right, strlen(right));
		tui_fill(t, 0, 0, COLS, TR_HEADER);
		snprintf(line, sizeof line, " rankwatch  %s", t->run->title);
		lw = COLS - rw - 1;
		tui_puts(t, 0, 0, lw, line, TR_HEADER);
		tui_puts(t, 0, COLS - rw, rw, right, TR_HEADER);
	}
}

/* Rows the reason takes: two when it needs them. */
static int
reason_rows(struct tui *t)
{
	struct strlist l = { NULL, 0 };
	int n;

	wrap_text(t->an->reason, COLS - 2 > 10 ? COLS - 2 : 10, &l);
	n = l.n > 1 ? 2 : 1;
	wrap_free(&l);
	return n;
}

/* The verdict, its claim, its confidence and the count of collateral
 * ranks; where the line is short, words go before meaning does. While the
 * logs are still being read there is no verdict of health: "reading". */
static void
draw_verdict(struct tui *t)
{
	const struct analysis *an = t->an;
	static const char *const word[] = { "HEALTHY", "FAILURE", "HANG" };
	static const enum theme_role role[] = { TR_HEALTHY_VERDICT, TR_FAILURE, TR_HANG };
	const char *dot = t->utf8 ? "\xc2\xb7" : "-";
	char claim[512], when[40], conf[128], coll[64], rd[96], *lead;
	struct strlist l = { NULL, 0 };
	int x, room, full;
	size_t i;

	if (t->loading)
		snprintf(rd, sizeof rd, "  %s reading %zu of %zu files", dot,
		    t->run->cursor < t->run->nsources ? t->run->cursor + 1 : t->run->nsources,
		    t->run->nsources);
	if (t->loading && an->verdict != VERDICT_FAILURE) {
		/* a hang or health needs every rank's log read to the end */
		x = tui_puts(t, 1, 1, COLS - 1, "READING", TR_TITLE);
		snprintf(claim, sizeof claim, "   no failure so far%s", rd);
		tui_puts(t, 1, 1 + x, COLS - 2 - x, claim, TR_DIM);
		tui_puts(t, 2, 1, COLS - 2, "ranks whose logs are not read to the end have no role "
		    "yet; nothing is called silent or healthy before then", TR_DIM);
		return;
	}
	x = tui_puts(t, 1, 1, COLS - 1, word[an->verdict], role[an->verdict]);
	if (t->loading)
		x += tui_puts(t, 1, 1 + x, 10, " so far", TR_DIM);
	x += 3;
	lead = analysis_lead_suspects(an, NULL);
	if (an->initiating != NULL && an->initiating->rank >= 0) {
		stamp_format(&an->initiating->ts, 0, when, sizeof when);
		full = snprintf(claim, sizeof claim, "rank %d first: %s at %s", an->initiating->rank,
		    an->init_entry->title, when);
	} else if (an->initiating != NULL)
		full = snprintf(claim, sizeof claim, "%s (no rank named)",
		    an->initiating->sig->entry->title);
	else if (an->verdict == VERDICT_HANG && an->nsuspects > 0)
		full = snprintf(claim, sizeof claim, "no rank failed; suspect %s", lead);
	else if (an->verdict == VERDICT_HANG)
		full = snprintf(claim, sizeof claim, "no rank failed and none stands out");
	else if (an->verdict == VERDICT_FAILURE && an->stopped)
		full = snprintf(claim, sizeof claim, "only teardown; the cause is not in these logs");
	else if (an->verdict == VERDICT_FAILURE && an->nsuspects > 0)
		full = snprintf(claim, sizeof claim, "only fallout, no cause shown; suspect %s",
		    lead);
	else if (an->verdict == VERDICT_FAILURE)
		full = snprintf(claim, sizeof claim, "only fallout; the cause is not in these logs");
	else
		full = snprintf(claim, sizeof claim, "no failure, no stall");
	free(lead);
	snprintf(conf, sizeof conf, "  %s %s confidence", dot, an->confidence);
	coll[0] = '\0';
	if (an->role_count[RR_COLLATERAL] > 0)
		snprintf(coll, sizeof coll, "  %s %zu collateral", dot, an->role_count[RR_COLLATERAL]);
	if (t->loading)
		snprintf(conf, sizeof conf, "%s", rd);
	/* short of room: the word "confidence" goes first, then the time,
	 * then "collateral" shortens, then the claim is cut; never the
	 * confidence or the collateral count */
#define CELLS(str) ((int)wrap_cells(str, strlen(str)))
	room = COLS - 1 - x - CELLS(conf) - CELLS(coll);
	if (room < full && !t->loading) {
		snprintf(conf, sizeof conf, "  %s %s", dot, an->confidence);
		room = COLS - 1 - x - CELLS(conf) - CELLS(coll);
	}
	if (room < full && an->initiating != NULL && an->initiating->rank >= 0)
		full = snprintf(claim, sizeof claim, "rank %d first: %s", an->initiating->rank,
		    an->initiating->sig->entry->title);
	if (room < full && coll[0]) {
		snprintf(coll, sizeof coll, "  %s %zu coll.", dot, an->role_count[RR_COLLATERAL]);
		room = COLS - 1 - x - CELLS(conf) - CELLS(coll);
	}
#undef CELLS
	x += tui_puts(t, 1, x, room > 8 ? room : 8, claim, TR_TITLE);
	x += tui_puts(t, 1, x, COLS - x, conf, TR_NORMAL);
	if (coll[0])
		tui_puts(t, 1, x, COLS - x, coll, TR_COLLATERAL);
	/* the reason whole, on two rows when it needs them */
	wrap_text(an->reason, COLS - 2 > 10 ? COLS - 2 : 10, &l);
	for (i = 0; i < l.n && i < 2; i++) {
		if (i == 1 && l.n > 2) {
			char *cut = xasprintf("%s%s", l.v[1], t->utf8 ? "\xe2\x80\xa6" : "...");
			int cw = (int)wrap_cells(cut, strlen(cut));

			tui_puts(t, 3, 1, COLS - 2, cut, TR_DIM);
			if (cw > COLS - 2)	/* the mark shows even when the row is full */
				tui_puts(t, 3, COLS - 2, 1, t->utf8 ? "\xe2\x80\xa6" : ">", TR_DIM);
			free(cut);
		} else
			tui_puts(t, 2 + (int)i, 1, COLS - 2, l.v[i], TR_DIM);
	}
	wrap_free(&l);
}

static void
draw_axis(struct tui *t, struct overview *o, int y, int x0)
{
	double step = timeline_step(&o->tv);
	char lab[64], title[160];
	int c, every = 14, end;
	struct stamp s = { 0, 0, STAMP_TIME };

	/* what is shown and in what order, always on screen; the times after it */
	if (o->r.filter == FILTER_ALL)
		snprintf(title, sizeof title, "%s%zu rank%s, %s", COLS >= 100 ? "timeline: " : "",
		    o->r.n, o->r.n == 1 ? "" : "s", row_sort_names[o->r.sort]);
	else
		snprintf(title, sizeof title, "%s%zu of %zu ranks (%s), %s", COLS >= 100 ?
		    "timeline: " : "", o->r.n, t->run->incident->rank_n,
		    row_filter_names[o->r.filter], row_sort_names[o->r.sort]);
	tui_rule(t, y, title);
	end = 2 + (int)wrap_cells(title, strlen(title)) + 3;
	if (step >= 10)
		snprintf(lab, sizeof lab, " %.0f s/col ", step);
	else if (step >= 1)
		snprintf(lab, sizeof lab, " %.1f s/col ", step);
	else
		snprintf(lab, sizeof lab, " %.2f s/col ", step);
	tui_puts(t, y, COLS - (int)strlen(lab) - 2, (int)strlen(lab), lab, TR_DIM);
	for (c = 14; c + 8 < o->tv.cols; c += every) {
		if (x0 + c < end || x0 + c + 9 > COLS - (int)strlen(lab) - 2)
			continue;
		s.sec = timeline_time(&o->tv, c);
		stamp_format(&s, 0, lab, sizeof lab);
		if (step >= 60 && strlen(lab) == 8)
			lab[5] = '\0';
		tui_puts(t, y, x0 + c, 9, lab, TR_DIM);
	}
}

/* A rank whose log is still being read has no role yet, unless its lines
 * so far already show it failed or reported fallout. */
static int
no_role_yet(struct tui *t, const struct rankstate *rs)
{
	return rs->role != RR_INITIATING && rs->role != RR_COLLATERAL &&
	    tui_rank_reading(t, rs->rank);
}

/* What a rank's row says of it, in at most room cells where that can be
 * chosen: the role and its event first, how long it has been quiet only
 * when it fits. */
static void
annotation(struct tui *t, int rank, char *out, size_t len, int room)
{
	const struct rankstate *rs = incident_rank(t->run->incident, rank);
	const struct incident *in = t->run->incident;
	char span[32];

	if (no_role_yet(t, rs)) {
		snprintf(out, len, "reading");
		return;
	}
	switch (rs->role) {
	case RR_INITIATING:
		snprintf(out, len, "INITIATING %s", rs->first_event ?
		    rs->first_event->sig->entry->id : "");
		break;
	case RR_SUSPECT:
		if ((rs->last.flags & STAMP_TIME) && (in->last.flags & STAMP_TIME) &&
		    in->last.sec - rs->last.sec >= 30) {
			stamp_format_span((in->last.sec - rs->last.sec) * 1000000000LL, span, sizeof span);
			snprintf(out, len, "SUSPECT silent %s", span);
		} else
			snprintf(out, len, "SUSPECT");
		break;
	case RR_COLLATERAL:
		/* the timeline shows its ~ already: the word, not the glyph again */
		snprintf(out, len, "%s %s", COLS >= 120 ? "collateral" : "coll.", rs->first_event ?
		    (COLS >= 120 ? rs->first_event->sig->entry->id : rs->first_event->sig->id) : "");
		break;
	case RR_SILENT:
		snprintf(out, len, rs->lines ? "silent" : "no output");
		break;
	default:
		snprintf(out, len, "healthy");
	}
	/* how long a rank has been quiet while others wrote: the first sign
	 * of a stall, long before the watchdog */
	if (rs->role != RR_SUSPECT && (rs->last.flags & STAMP_TIME) &&
	    (in->last.flags & STAMP_TIME) && in->last.sec - rs->last.sec >= 60) {
		size_t l = strlen(out);

		stamp_format_span((in->last.sec - rs->last.sec) * 1000000000LL, span, sizeof span);
		if ((int)(l + strlen(", quiet ") + strlen(span)) <= room)
			snprintf(out + l, len - l, ", quiet %s", span);
	}
}

static int
label_width(struct tui *t)
{
	(void)t;
	return COLS >= 120 ? 16 : 7;
}

static void
draw_rows(struct tui *t, struct overview *o, int y0, int nvis)
{
	const struct incident *in = t->run->incident;
	int lw = label_width(t), aw = COLS >= 120 ? 34 : COLS / 4 > 22 ? COLS / 4 : 22, i, c;
	enum cell *cells;
	char lab[64], ann[96];

	o->cols = COLS - lw - aw - 1;
	if (o->cols < 10)
		o->cols = 10;
	if (o->fitted)
		timeline_fit(in, o->cols, &o->tv);
	else
		o->tv.cols = o->cols;
	if (o->col >= o->cols)
		o->col = o->cols - 1;
	cells = xcalloc((size_t)o->cols + 1, sizeof *cells);
	draw_axis(t, o, y0 - 1, lw);
	if (o->r.sel < o->top)
		o->top = o->r.sel;
	if (o->r.sel >= o->top + nvis)
		o->top = o->r.sel - nvis + 1;
	for (i = 0; i < nvis && o->top + i < (int)o->r.n; i++) {
		int rank = o->r.v[o->top + i], y = y0 + i, sel = o->top + i == o->r.sel;
		const struct rankstate *rs = incident_rank(in, rank);
		enum theme_role rr = no_role_yet(t, rs) ? TR_DIM : tui_rank_role(rs->role);

		if (lw >= 16 && rs->host) {
			/* the end of a host name tells nodes apart: gpu-a01, gpu-a02;
			 * named once per group of rows on the same node */
			size_t hl = strlen(rs->host);
			const struct rankstate *prev = o->top + i > 0 ?
			    incident_rank(in, o->r.v[o->top + i - 1]) : NULL;
			int same = i > 0 && prev != NULL && prev->host != NULL &&
			    strcmp(prev->host, rs->host) == 0;

			snprintf(lab, sizeof lab, "%c%5d %-8.8s ", sel ? '>' : ' ', rank,
			    same ? "" : hl > 8 ? rs->host + hl - 8 : rs->host);
		}
		else
			snprintf(lab, sizeof lab, "%c%5d ", sel ? '>' : ' ', rank);
		tui_puts(t, y, 0, lw, lab, sel && o->focus == 0 ? TR_SELECTION :
		    rs->role == RR_INITIATING || rs->role == RR_SUSPECT ? rr : TR_NORMAL);
		timeline_row(in, rank, &o->tv, cells);
		for (c = 0; c < o->cols; c++) {
			chtype a = tui_attr(t, cell_role(cells[c]));

			if (sel && c == o->col && o->focus == 0)
				a = tui_attr(t, TR_SELECTION);
			attrset(a);
			if (t->utf8)
				mvaddstr(y, lw + c, glyph_utf8[cells[c]]);
			else
				mvaddch(y, lw + c, (chtype)glyph_ascii[cells[c]]);
		}
		attrset(A_NORMAL);
		annotation(t, rank, ann, sizeof ann, aw);
		tui_puts(t, y, lw + o->cols + 1, aw, ann, rr);
	}
	free(cells);
}

/* Cells per row of the compact grid: a whole number of nodes (8 ranks
 * each when the logs do not say), so that node boundaries line up. */
static int
compact_per(struct tui *t)
{
	const struct incident *in = t->run->incident;
	int node = t->an->nodes > 1 ? (int)((incident_active_ranks(in) + (size_t)t->an->nodes - 1) /
	    (size_t)t->an->nodes) : 8, per;

	if (node < 1 || node > COLS - 8)
		node = 8;
	per = (COLS - 8) / node * node;
	return per >= node ? per : COLS - 8 > 10 ? COLS - 8 : 10;
}

static void
draw_compact(struct tui *t, struct overview *o, int y0, int nvis)
{
	const struct incident *in = t->run->incident;
	static const char glyph[] = "oX~?.";	/* healthy initiating collateral suspect silent */
	int per = compact_per(t), i, y, sel = -1;
	char lab[160];

	tui_rule(t, y0 - 1, "ranks (one cell each: X initiating  ? suspect  ~ collateral  . silent  o healthy)");
	if (o->r.sel / per < o->top)
		o->top = o->r.sel / per;
	if (o->r.sel / per >= o->top + nvis - 1)
		o->top = o->r.sel / per - nvis + 2;
	for (y = 0; y < nvis - 1; y++) {
		int row = o->top + y;

		if (row * per >= (int)o->r.n)
			break;
		snprintf(lab, sizeof lab, "%6d ", o->r.v[row * per]);
		tui_puts(t, y0 + y, 0, 7, lab, TR_DIM);
		for (i = 0; i < per && row * per + i < (int)o->r.n; i++) {
			int idx = row * per + i, rank = o->r.v[idx];
			const struct rankstate *rs = incident_rank(in, rank);
			chtype a = tui_attr(t, idx == o->r.sel ? TR_SELECTION : tui_rank_role(rs->role));

			if (idx == o->r.sel)
				sel = rank;
			attrset(a);
			mvaddch(y0 + y, 7 + i, (chtype)glyph[rs->role]);
		}
	}
	attrset(A_NORMAL);
	if (sel >= 0) {
		const struct rankstate *rs = incident_rank(in, sel);

		annotation(t, sel, lab, 80, 60);
		snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "  rank %d, %lu lines%s%s",
		    sel, rs->lines, rs->why ? ": " : "", rs->why ? rs->why : "");
		tui_puts(t, y0 + nvis - 1, 1, COLS - 2, lab, tui_rank_role(rs->role));
	}
}

static int
diag_rows(void)
{
	return LINES >= 40 ? 6 : LINES >= 24 ? 3 : 1;
}

static void
draw_diagnoses(struct tui *t, struct overview *o, int y0, int n)
{
	const struct analysis *an = t->an;
	int i, x;
	char line[256];

	tui_rule(t, y0, t->loading ? "diagnoses so far" : "diagnoses");
	if (an->ndiags == 0) {
		tui_puts(t, y0 + 1, 2, COLS - 4, "no encyclopedia entry matched", TR_DIM);
		return;
	}
	if (o->dsel >= (int)an->ndiags)
		o->dsel = (int)an->ndiags - 1;
	for (i = 0; i < n && i < (int)an->ndiags; i++) {
		int idx = o->dsel >= n ? o->dsel - n + 1 + i : i;
		const struct diagnosis *d = &an->diags[idx];
		int sel = idx == o->dsel && o->focus == 1, y = y0 + 1 + i;
		int idw = COLS >= 100 ? 26 : 24;

		if (idx >= (int)an->ndiags)
			break;
		if (sel)
			tui_fill(t, y, 0, COLS, TR_SELECTION);
		snprintf(line, sizeof line, "%2d  %-*.*s ", idx + 1, idw, idw, d->entry->id);
		x = tui_puts(t, y, 1, COLS - 2, line, sel ? TR_SELECTION : TR_TITLE);
		snprintf(line, sizeof line, "%.2f ", d->score);
		x += tui_puts(t, y, 1 + x, COLS - 2 - x, line, sel ? TR_SELECTION : TR_NORMAL);
		tui_puts(t, y, 1 + x, 9, d->entry->severity,
		    sel ? TR_SELECTION : tui_severity_role(d->entry->severity));
		x += 9;
		x = x < 40 ? 40 : x;
		if (d->owns_initiating)
			snprintf(line, sizeof line, "%s", d->entry->title);
		else if (d->ranks == 0)
			snprintf(line, sizeof line, "%s (cross-rank conditions)", d->entry->title);
		else
			snprintf(line, sizeof line, "%s (%zu rank%s)", d->entry->title, d->ranks,
			    d->ranks == 1 ? "" : "s");
		tui_puts(t, y, 1 + x, COLS - 2 - x, line, sel ? TR_SELECTION : TR_NORMAL);
	}
}

/* The first row of the timeline: under the header, the verdict, its
 * reason (one or two rows) and the timeline's rule. */
static int
rows_top(struct tui *t)
{
	return 3 + (t->loading && t->an->verdict != VERDICT_FAILURE ? 1 : reason_rows(t));
}

/* Rows of the timeline, below its first row y0. */
static int
rows_visible(int y0)
{
	int n = LINES - y0 - 1 - (diag_rows() + 1);

	return n < 1 ? 1 : n;
}

static void
overview_draw(struct tui *t, struct view *v)
{
	struct overview *o = v->data;
	int y0 = rows_top(t), nvis = rows_visible(y0);

	draw_header(t);
	draw_verdict(t);
	if (o->compact)
		draw_compact(t, o, y0, nvis);
	else
		draw_rows(t, o, y0, nvis);
	draw_diagnoses(t, o, y0 + nvis, diag_rows());
}

/* --- keys ------------------------------------------------------------------ */

static void
jump_first(struct tui *t, struct overview *o)
{
	const struct event *ev = t->an->initiating;
	int rank = ev ? ev->rank : t->an->nsuspects ? t->an->suspects[0].rank : -1;

	if (rank < 0) {
		tui_message(t, 0, "no failure to jump to");
		return;
	}
	if (o->r.filter != FILTER_ALL) {
		o->r.filter = FILTER_ALL;
		build_rows(t, o);
	}
	rows_select(&o->r, rank);
	o->focus = 0;
	if (ev != NULL && (ev->ts.flags & STAMP_TIME)) {
		int c = timeline_col(&o->tv, ev->ts.sec);

		o->col = c < 0 ? 0 : c >= o->cols ? o->cols - 1 : c;
	}
	tui_message(t, 0, "rank %d: %s", rank, ev ? ev->sig->entry->title : t->an->suspects[0].reason);
}

static void
search_rows(struct tui *t, struct overview *o, const char *q, int dir)
{
	const struct incident *in = t->run->incident;
	char *end;
	long r = strtol(q, &end, 10);
	size_t k;

	if (*q && *end == '\0') {
		rows_select(&o->r, (int)r);
		if (o->r.v[o->r.sel] != (int)r)
			tui_message(t, 1, "rank %ld is not shown (filter: %s)", r, row_filter_names[o->r.filter]);
		return;
	}
	for (k = 1; k <= o->r.n; k++) {
		int idx = (int)((o->r.sel + (dir > 0 ? (int)k : (int)o->r.n - (int)k)) % (int)o->r.n);
		const struct rankstate *rs = incident_rank(in, o->r.v[idx]);
		char ann[128];

		annotation(t, o->r.v[idx], ann, sizeof ann, (int)sizeof ann);
		if (strcasestr(ann, q) || (rs->host && strcasestr(rs->host, q)) ||
		    strcasestr(rank_role_name(rs->role), q)) {
			o->r.sel = idx;
			return;
		}
	}
	tui_message(t, 1, "no rank matches '%s'", q);
}

static int
overview_key(struct tui *t, struct view *v, enum action a, int code)
{
	struct overview *o = v->data;
	int y0 = rows_top(t), nvis = rows_visible(y0), per = compact_per(t),
	    step = o->compact ? per : 1;
	char *q;

	if (code == KEY_MOUSE) {
		int y = t->mouse.y, x = t->mouse.x, lw = label_width(t);
		int dy0 = y0 + nvis + 1;

		if (!o->compact && y >= y0 && y < y0 + nvis && o->top + (y - y0) < (int)o->r.n) {
			o->focus = 0;
			o->r.moved = 1;
			o->r.sel = o->top + (y - y0);
			if (x >= lw && x < lw + o->cols) {
				o->col = x - lw;
				o->col_set = 1;
			}
		} else if (y >= dy0 && y < dy0 + diag_rows() && y - dy0 < (int)t->an->ndiags) {
			o->focus = 1;
			o->dsel = y - dy0;
		} else
			return HR_NONE;
		if (!MOUSE_DOUBLE(t))
			return HR_REDRAW;
		a = ACT_OPEN;
	}
	if (o->r.n == 0 && a != ACT_FILTER && a != ACT_OPEN && a != ACT_TAB)
		return HR_UNHANDLED;
	if (o->focus == 0 && (a == ACT_UP || a == ACT_DOWN || a == ACT_PGUP || a == ACT_PGDN ||
	    a == ACT_TOP || a == ACT_BOTTOM || ((a == ACT_LEFT || a == ACT_RIGHT) && o->compact)))
		o->r.moved = 1;
	if (!o->compact && (a == ACT_LEFT || a == ACT_RIGHT))
		o->col_set = 1;
	switch (a) {
	case ACT_UP:
		if (o->focus == 1)
			o->dsel = o->dsel > 0 ? o->dsel - 1 : 0;
		else
			o->r.sel = o->r.sel - step >= 0 ? o->r.sel - step : 0;
		return HR_REDRAW;
	case ACT_DOWN:
		if (o->focus == 1)
			o->dsel = o->dsel + 1 < (int)t->an->ndiags ? o->dsel + 1 : o->dsel;
		else
			o->r.sel = o->r.sel + step < (int)o->r.n ? o->r.sel + step : (int)o->r.n - 1;
		return HR_REDRAW;
	case ACT_LEFT:
		if (o->compact)
			o->r.sel = o->r.sel > 0 ? o->r.sel - 1 : 0;
		else if (o->col > 0)
			o->col--;
		else if (!o->fitted || o->tv.t0 > t->run->incident->first.sec) {
			o->fitted = 0;
			o->tv.t0 -= o->tv.span / 4;
		}
		return HR_REDRAW;
	case ACT_RIGHT:
		if (o->compact)
			o->r.sel = o->r.sel + 1 < (int)o->r.n ? o->r.sel + 1 : o->r.sel;
		else if (o->col + 1 < o->cols)
			o->col++;
		else if (!o->fitted) {
			o->tv.t0 += o->tv.span / 4;
		}
		return HR_REDRAW;
	case ACT_PGUP:
		o->r.sel = o->r.sel - nvis * step > 0 ? o->r.sel - nvis * step : 0;
		return HR_REDRAW;
	case ACT_PGDN:
		o->r.sel = o->r.sel + nvis * step < (int)o->r.n ? o->r.sel + nvis * step : (int)o->r.n - 1;
		return HR_REDRAW;
	case ACT_TOP:
		o->r.sel = 0;
		o->col = 0;
		o->col_set = 0;
		return HR_REDRAW;
	case ACT_BOTTOM:
		o->r.sel = (int)o->r.n - 1;
		return HR_REDRAW;
	case ACT_TAB:
		o->focus = !o->focus;
		return HR_REDRAW;
	case ACT_ZOOMIN:
	case ACT_ZOOMOUT:
		if (o->compact)
			return HR_NONE;
		o->fitted = 0;
		timeline_zoom(t->run->incident, &o->tv, o->col, a == ACT_ZOOMIN ? 0.5 : 2.0);
		if (a == ACT_ZOOMOUT && o->tv.span >= t->run->incident->last.sec -
		    t->run->incident->first.sec + 1) {
			o->fitted = 1;
			timeline_fit(t->run->incident, o->cols, &o->tv);
		}
		return HR_REDRAW;
	case ACT_FIRST:
		jump_first(t, o);
		o->r.moved = 1;
		return HR_REDRAW;
	case ACT_FILTER:
		o->r.filter = (enum row_filter)((o->r.filter + 1) % FILTER__COUNT);
		build_rows(t, o);
		tui_message(t, 0, "showing %s (%zu)", row_filter_names[o->r.filter], o->r.n);
		return HR_REDRAW;
	case ACT_SORT:
		o->sort_auto = 0;
		o->r.sort = (enum row_sort)((o->r.sort + 1) % SORT__COUNT);
		build_rows(t, o);
		tui_message(t, 0, "sorted %s", row_sort_names[o->r.sort]);
		return HR_REDRAW;
	case ACT_COMPACT:
		o->compact = !o->compact;
		o->top = 0;
		return HR_REDRAW;
	case ACT_SEARCH:
		if ((q = tui_prompt(t, "rank, host or role: ", NULL)) != NULL) {
			free(t->last_search);
			t->last_search = q;
			search_rows(t, o, q, 1);
		}
		return HR_REDRAW;
	case ACT_NEXT:
	case ACT_PREV:
		if (t->last_search)
			search_rows(t, o, t->last_search, a == ACT_NEXT ? 1 : -1);
		return HR_REDRAW;
	case ACT_MERGE:
		if (o->col_set && !o->compact)
			tui_push(t, &log_ops, log_new(t, -1, timeline_time(&o->tv, o->col), NULL, 0));
		else if (o->r.n > 0 && incident_rank(t->run->incident, o->r.v[o->r.sel])->first_event) {
			const struct event *ev = incident_rank(t->run->incident,
			    o->r.v[o->r.sel])->first_event;

			tui_push(t, &log_ops, log_new(t, -1, 0, event_file(ev), ev->lineno));
		} else
			tui_push(t, &log_ops, log_new(t, -1, 0, NULL, 0));
		return HR_REDRAW;
	case ACT_OPEN:
		if (o->focus == 1) {
			if (t->an->ndiags > 0)
				tui_push(t, &entry_ops, entry_new(t, t->an->diags[o->dsel].entry));
		} else if (o->r.n > 0 && o->col_set && !o->compact)
			/* the user put the time cursor: the log from there */
			tui_push(t, &log_ops, log_new(t, o->r.v[o->r.sel], timeline_time(&o->tv, o->col),
			    NULL, 0));
		else if (o->r.n > 0)
			tui_push(t, &log_ops, log_new_rank(t, o->r.v[o->r.sel]));
		return HR_REDRAW;
	default:
		return HR_UNHANDLED;
	}
}

const struct view_ops overview_ops = {
	.name = "overview",
	.draw = overview_draw,
	.key = overview_key,
	.release = overview_release,
	.update = overview_update,
	.hints = "Enter log  Tab diagnoses  f first  F filter  s sort  +/- zoom  c compact  ? help  q quit",
};
