/* view_entry.c: one encyclopedia entry, read against this run: the
 * evidence (where the selection starts), the conditions and the ranks they
 * point at, the symptoms table with a "seen" column, the confirmation
 * checklist to tick (kept per run), the fix. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "wrap.h"
#include "xmalloc.h"

static const char *
mark(struct tui *t, int on)
{
	if (t->utf8)
		return on ? "\xe2\x9c\x94" : "\xc2\xb7";
	return on ? "*" : ".";
}

static void
build(struct tui *t, struct page *p)
{
	const struct entry *e = p->e;
	struct incident *in = t->run->incident;
	const struct analysis *an = t->an;
	const struct diagnosis *d = NULL;
	char buf[1024], when[40];
	size_t i, j;
	int widths[3];

	page_clear(p);
	for (i = 0; i < an->ndiags; i++)
		if (an->diags[i].entry == e)
			d = &an->diags[i];
	snprintf(buf, sizeof buf, "%s  %s %s %s %s %s", e->title, t->utf8 ? "\xc2\xb7" : "-",
	    e->category, t->utf8 ? "\xc2\xb7" : "-", e->severity, e->id);
	page_add(p, buf, TR_TITLE, ROW_TEXT, 0);
	page_heading(p, "In this run");
	if (d == NULL)
		page_add(p, "  not among this run's diagnoses", TR_DIM, ROW_TEXT, 0);
	else {
		if (d->ranks > 0)
			snprintf(buf, sizeof buf, "  score %.2f%s, evidence on %zu rank%s", d->score,
			    d->owns_initiating ? ", explains the initiating event" : "", d->ranks,
			    d->ranks == 1 ? "" : "s");
		else
			snprintf(buf, sizeof buf, "  score %.2f, from %zu cross-rank condition%s "
			    "(no line of its own)", d->score, d->nconds, d->nconds == 1 ? "" : "s");
		page_add(p, buf, TR_NORMAL, ROW_TEXT, 0);
		for (i = 0; i < d->nconds; i++) {
			const struct condresult *c = d->conds[i];

			snprintf(buf, sizeof buf, "%s%s%s", c->cond->text,
			    c->detail ? ": " : "", c->detail ? c->detail : "");
			page_add_wrapped(p, buf, "  condition: ", "             ", TR_SEEN, ROW_TEXT, 0);
			for (j = 0; j < c->nblamed && j < 8; j++) {
				const struct rankstate *rs = incident_rank(in, c->blamed[j]);

				snprintf(buf, sizeof buf, "             > rank %d: its log%s", c->blamed[j],
				    rs && rs->first_event ? ", at its first event" : ", at its last line");
				page_add(p, buf, TR_LINK, ROW_RANK, c->blamed[j]);
			}
		}
		for (i = 0; i < d->nevidence; i++) {
			const struct event *ev = d->evidence_events[i];

			stamp_format(&ev->ts, 0, when, sizeof when);
			snprintf(buf, sizeof buf, "  > %s:%lu  rank %d  %s  [%s] %s", event_file(ev),
			    (unsigned long)ev->lineno, ev->rank, when, role_name(ev->sig->role), ev->sig->id);
			page_add(p, buf, TR_LINK, ROW_EVENT, 0);
			p->rows[p->nrows - 1].ev = ev;
		}
	}
	page_heading(p, "Summary");
	page_add_wrapped(p, e->summary, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	if (e->mechanism) {
		page_heading(p, "Mechanism");
		page_add_wrapped(p, e->mechanism, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	page_bullets(p, "What you observe", &e->observe);
	if (e->nsymptoms) {
		struct strlist l = { NULL, 0 };
		const char *cells[3];

		page_heading(p, "Symptoms");
		/* the page draws a row in COLS - 2 cells; each row starts with
		 * two spaces, and the three columns are two apart */
		widths[0] = 14;
		widths[1] = (COLS - 2 - 2 - 14 - 4) * 2 / 5;
		widths[2] = COLS - 2 - 2 - 14 - 4 - widths[1];
		if (widths[1] < 10)
			widths[1] = widths[2] = 10;
		cells[0] = "seen";
		cells[1] = "symptom";
		cells[2] = "why it happens";
		wrap_row(cells, widths, 3, "  ", &l);
		for (j = 0; j < l.n; j++) {
			snprintf(buf, sizeof buf, "  %s", l.v[j]);
			page_add(p, buf, TR_DIM, ROW_TEXT, 0);
		}
		wrap_free(&l);
		for (i = 0; i < e->nsymptoms; i++) {
			const struct event *ev = NULL;
			const char *detail = NULL;
			int seen = e->symptoms[i].signal &&
			    incident_signal(in, e, e->symptoms[i].signal, &ev, &detail);
			char seenbuf[64];

			if (seen && ev)
				snprintf(seenbuf, sizeof seenbuf, "%s rank %d", mark(t, 1), ev->rank);
			else if (seen)
				snprintf(seenbuf, sizeof seenbuf, "%s seen", mark(t, 1));
			else
				snprintf(seenbuf, sizeof seenbuf, "%s %s", mark(t, 0),
				    e->symptoms[i].signal ? "not seen" : "");
			cells[0] = seenbuf;
			cells[1] = e->symptoms[i].symptom;
			cells[2] = e->symptoms[i].why;
			wrap_row(cells, widths, 3, "  ", &l);
			for (j = 0; j < l.n; j++) {
				snprintf(buf, sizeof buf, "  %s", l.v[j]);
				page_add(p, buf, seen ? TR_SEEN : TR_NORMAL, seen && ev ? ROW_EVENT : ROW_TEXT, 0);
				p->rows[p->nrows - 1].ev = ev;
				p->rows[p->nrows - 1].first = j == 0;
			}
			wrap_free(&l);
		}
	}
	page_bullets(p, "Affected", &e->affected);
	page_bullets(p, "Root causes", &e->root_causes);
	if (e->nchecklist) {
		page_heading(p, "Confirmation checklist (Space ticks, a adds a note; kept for this run)");
		for (i = 0; i < e->nchecklist; i++) {
			const struct tick *k = ticks_get(t->ticks, e->id, (int)i);
			const struct event *ev = NULL;
			const char *detail = NULL;
			int seen = e->checklist[i].signal &&
			    incident_signal(in, e, e->checklist[i].signal, &ev, &detail);
			char first[32];

			snprintf(first, sizeof first, "  [%c] %zu. ", k && k->checked ? 'x' : ' ', i + 1);
			page_add_wrapped(p, e->checklist[i].step, first, "         ",
			    k && k->checked ? TR_CHECKED : TR_NORMAL, ROW_STEP, (int)i);
			if (seen) {
				if (ev)
					snprintf(buf, sizeof buf, "         %s seen in logs: %s:%lu (rank %d), Enter jumps there",
					    mark(t, 1), event_file(ev), (unsigned long)ev->lineno, ev->rank);
				else
					snprintf(buf, sizeof buf, "         %s seen in logs%s%s", mark(t, 1),
					    detail ? ": " : "", detail ? detail : "");
				page_add(p, buf, TR_SEEN, ev ? ROW_EVENT : ROW_NOTE, (int)i);
				p->rows[p->nrows - 1].ev = ev;
			}
			if (k && k->note) {
				snprintf(buf, sizeof buf, "note: %s", k->note);
				page_add_wrapped(p, buf, "         ", "         ", TR_DIM, ROW_NOTE, (int)i);
			}
		}
	}
	if (e->fix_steps.n || e->fix_verify) {
		page_bullets(p, "Fix", &e->fix_steps);
		if (e->fix_verify)
			page_add_wrapped(p, e->fix_verify, "  verify: ", "          ", TR_NORMAL, ROW_TEXT, 0);
	}
	page_bullets(p, "Prevention", &e->prevention);
	if (e->fingerprint) {
		page_heading(p, "Fingerprint to monitor");
		page_add_wrapped(p, e->fingerprint, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	if (e->scaling) {
		page_heading(p, "From 1 GPU to 1000");
		page_add_wrapped(p, e->scaling, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	if (e->nenv) {
		page_heading(p, "Environment variables");
		for (i = 0; i < e->nenv; i++) {
			page_add(p, e->env[i].name, TR_NORMAL, ROW_TEXT, 0);
			page_add_wrapped(p, e->env[i].shows, "      ", "      ", TR_DIM, ROW_TEXT, 0);
		}
	}
	if (e->related.n) {
		page_heading(p, "Related (Enter opens)");
		for (i = 0; i < e->related.n; i++) {
			const struct entry *re = rulebook_entry(t->rb, e->related.v[i]);

			snprintf(buf, sizeof buf, "  > %s%s%s", e->related.v[i], re ? "  " : "",
			    re ? re->title : "");
			page_add(p, buf, re ? TR_LINK : TR_DIM, re ? ROW_RELATED : ROW_TEXT, 0);
			p->rows[p->nrows - 1].entry = re;
		}
	}
	if (e->nrefs) {
		page_heading(p, "References");
		for (i = 0; i < e->nrefs; i++) {
			snprintf(buf, sizeof buf, "%s%s%s", e->refs[i].title ? e->refs[i].title : "",
			    e->refs[i].title ? ": " : "", e->refs[i].url);
			page_add_wrapped(p, buf, "  - ", "    ", TR_NORMAL, ROW_TEXT, 0);
		}
	}
}

/* The checklist step a row belongs to (a step's rows, its "seen in
 * logs" line and its note), or -1. */
static int
step_of(const struct page *p, int i)
{
	const struct row *r = &p->rows[i];

	if (r->kind == ROW_STEP || r->kind == ROW_NOTE)
		return r->idx;
	if (r->kind == ROW_EVENT && i > 0 && (p->rows[i - 1].kind == ROW_STEP ||
	    p->rows[i - 1].kind == ROW_NOTE))
		return p->rows[i - 1].idx;
	return -1;
}

/* 0 when the state is saved; else the reason is the message. */
static int
save(struct tui *t)
{
	char *why = NULL;

	if (ticks_save(t->ticks, &why) != 0) {
		tui_message(t, 1, "%s", why);
		free(why);
		return -1;
	}
	return 0;
}

static int
key(struct tui *t, struct page *p, enum action a, int code)
{
	int idx = p->nrows ? step_of(p, p->sel) : -1;
	const struct tick *k;
	char *note;

	(void)code;
	switch (a) {
	case ACT_NEXTEV:
	case ACT_PREVEV: {
		/* ] and [: the next or previous checklist step, past the rest */
		int i, dir = a == ACT_NEXTEV ? 1 : -1;

		for (i = p->sel + dir; i >= 0 && i < (int)p->nrows; i += dir)
			if (p->rows[i].kind == ROW_STEP && p->rows[i].first) {
				page_land(p, i);
				return HR_REDRAW;
			}
		tui_message(t, 0, "no checklist step %s", dir > 0 ? "below" : "above");
		return HR_REDRAW;
	}
	case ACT_TICK:
		if (idx < 0) {
			tui_message(t, 0, "Space ticks a checklist step (Tab goes to the next one)");
			return HR_REDRAW;
		}
		k = ticks_get(t->ticks, p->e->id, idx);
		ticks_set(t->ticks, p->e->id, idx, !(k && k->checked), k ? k->note : NULL);
		if (save(t) == 0)
			tui_message(t, 0, "step %d %s", idx + 1,
			    ticks_get(t->ticks, p->e->id, idx)->checked ? "ticked" : "unticked");
		return HR_REDRAW;
	case ACT_NOTE:
		if (idx < 0) {
			tui_message(t, 0, "a adds a note to a checklist step");
			return HR_REDRAW;
		}
		k = ticks_get(t->ticks, p->e->id, idx);
		if ((note = tui_prompt(t, "note: ", k ? k->note : NULL)) != NULL) {
			ticks_set(t->ticks, p->e->id, idx, k ? k->checked : 0, note);
			save(t);
			free(note);
		}
		return HR_REDRAW;
	case ACT_OPEN:
		if (p->nrows && p->rows[p->sel].kind == ROW_RANK) {
			tui_push(t, &log_ops, log_new_rank(t, p->rows[p->sel].idx));
			return HR_REDRAW;
		}
		return HR_UNHANDLED;
	default:
		return HR_UNHANDLED;
	}
}

void *
entry_new(struct tui *t, const struct entry *e)
{
	char *title = xasprintf("encyclopedia  %s", e->id);
	struct page *p = page_new(title, build, key);

	(void)t;
	free(title);
	p->e = e;
	return p;
}

const struct view_ops entry_ops = {
	.name = "entry",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "Tab next item  ] next step  Enter jump/open  Space tick  a note  / search  q back",
};
