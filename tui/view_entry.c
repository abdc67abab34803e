/* view_entry.c: one encyclopedia entry, read against this run: the
 * evidence, the symptoms table with a "seen" column, the confirmation
 * checklist to tick (kept per run), the fix. Also the encyclopedia browser
 * and plain text pages, which share its scrolling. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "encyclopedia.h"
#include "tui.h"
#include "wrap.h"
#include "xmalloc.h"

enum rowkind {
	ROW_TEXT,
	ROW_STEP,	/* a checklist step (idx) */
	ROW_EVENT,	/* jump to a log line */
	ROW_RELATED,	/* open another entry */
};

struct row {
	char			*text;
	enum theme_role		 role;
	enum rowkind		 kind;
	int			 idx;
	const struct event	*ev;
	const struct entry	*entry;
};

struct page {
	const struct entry	*e;		/* NULL: a text page or the browser */
	char			*title;
	char			*text;		/* text pages */
	struct row		*rows;
	size_t			 nrows, cap;
	int			 top, sel;
	char			*search;
	int			 browser;
	const struct entry	**list;		/* browser: entries shown */
	size_t			 nlist;
};

static void
add(struct page *p, const char *text, enum theme_role role, enum rowkind kind, int idx)
{
	struct row *r;

	XGROW(p->rows, p->cap, p->nrows + 1);
	r = &p->rows[p->nrows++];
	memset(r, 0, sizeof *r);
	r->text = xstrdup(text);
	r->role = role;
	r->kind = kind;
	r->idx = idx;
}

static void
add_wrapped(struct page *p, const char *text, const char *first, const char *indent,
    enum theme_role role, enum rowkind kind, int idx)
{
	struct strlist l = { NULL, 0 };
	size_t i, w = (size_t)(COLS > 20 ? COLS - 2 : 18) - strlen(indent);
	char *line;

	wrap_text(text, (int)w, &l);
	for (i = 0; i < l.n; i++) {
		line = xasprintf("%s%s", i == 0 ? first : indent, l.v[i]);
		add(p, line, role, kind, idx);
		free(line);
	}
	wrap_free(&l);
}

static void
heading(struct page *p, const char *h)
{
	add(p, "", TR_NORMAL, ROW_TEXT, 0);
	add(p, h, TR_TITLE, ROW_TEXT, 0);
}

static void
bullets(struct page *p, const char *h, const struct strlist *l)
{
	size_t i;

	if (l->n == 0)
		return;
	heading(p, h);
	for (i = 0; i < l->n; i++)
		add_wrapped(p, l->v[i], "  - ", "    ", TR_NORMAL, ROW_TEXT, 0);
}

static void
clear_rows(struct page *p)
{
	size_t i;

	for (i = 0; i < p->nrows; i++)
		free(p->rows[i].text);
	p->nrows = 0;
}

static const char *
mark(struct tui *t, int on)
{
	if (t->utf8)
		return on ? "\xe2\x9c\x94" : "\xc2\xb7";
	return on ? "*" : ".";
}

static void
build_entry(struct tui *t, struct page *p)
{
	const struct entry *e = p->e;
	struct incident *in = t->run->incident;
	const struct analysis *an = t->an;
	const struct diagnosis *d = NULL;
	char buf[1024], when[40];
	size_t i, j;
	int widths[3];

	clear_rows(p);
	for (i = 0; i < an->ndiags; i++)
		if (an->diags[i].entry == e)
			d = &an->diags[i];
	snprintf(buf, sizeof buf, "%s  %s %s %s %s %s", e->title, t->utf8 ? "\xc2\xb7" : "-",
	    e->category, t->utf8 ? "\xc2\xb7" : "-", e->severity, e->id);
	add(p, buf, TR_TITLE, ROW_TEXT, 0);
	heading(p, "In this run");
	if (d == NULL)
		add(p, "  not among this run's diagnoses", TR_DIM, ROW_TEXT, 0);
	else {
		snprintf(buf, sizeof buf, "  score %.2f%s, %zu rank%s", d->score,
		    d->owns_initiating ? ", explains the initiating event" : "", d->ranks,
		    d->ranks == 1 ? "" : "s");
		add(p, buf, TR_NORMAL, ROW_TEXT, 0);
		for (i = 0; i < d->nconds; i++) {
			snprintf(buf, sizeof buf, "%s%s%s", d->conds[i]->cond->text,
			    d->conds[i]->detail ? ": " : "", d->conds[i]->detail ? d->conds[i]->detail : "");
			add_wrapped(p, buf, "  condition: ", "             ", TR_SEEN, ROW_TEXT, 0);
		}
		for (i = 0; i < d->nevidence; i++) {
			const struct event *ev = d->evidence_events[i];

			stamp_format(&ev->ts, 0, when, sizeof when);
			snprintf(buf, sizeof buf, "  > %s:%lu  rank %d  %s  [%s] %s", ev->file,
			    ev->lineno, ev->rank, when, role_name(ev->sig->role), ev->sig->id);
			add(p, buf, TR_LINK, ROW_EVENT, 0);
			p->rows[p->nrows - 1].ev = ev;
		}
	}
	heading(p, "Summary");
	add_wrapped(p, e->summary, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	if (e->mechanism) {
		heading(p, "Mechanism");
		add_wrapped(p, e->mechanism, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	bullets(p, "What you observe", &e->observe);
	if (e->nsymptoms) {
		struct strlist l = { NULL, 0 };
		const char *cells[3];

		heading(p, "Symptoms");
		widths[0] = 14;
		widths[1] = (COLS - 2 - 14 - 4) * 2 / 5;
		widths[2] = COLS - 2 - 14 - 4 - widths[1];
		if (widths[1] < 10)
			widths[1] = widths[2] = 10;
		cells[0] = "seen";
		cells[1] = "symptom";
		cells[2] = "why it happens";
		wrap_row(cells, widths, 3, "  ", &l);
		for (j = 0; j < l.n; j++) {
			snprintf(buf, sizeof buf, "  %s", l.v[j]);
			add(p, buf, TR_DIM, ROW_TEXT, 0);
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
				add(p, buf, seen ? TR_SEEN : TR_NORMAL, seen && ev ? ROW_EVENT : ROW_TEXT, 0);
				p->rows[p->nrows - 1].ev = ev;
			}
			wrap_free(&l);
		}
	}
	bullets(p, "Affected", &e->affected);
	bullets(p, "Root causes", &e->root_causes);
	if (e->nchecklist) {
		heading(p, "Confirmation checklist (Space ticks, a adds a note; kept for this run)");
		for (i = 0; i < e->nchecklist; i++) {
			const struct tick *k = ticks_get(t->ticks, e->id, (int)i);
			const struct event *ev = NULL;
			const char *detail = NULL;
			int seen = e->checklist[i].signal &&
			    incident_signal(in, e, e->checklist[i].signal, &ev, &detail);
			char first[32];

			snprintf(first, sizeof first, "  [%c] %zu. ", k && k->checked ? 'x' : ' ', i + 1);
			add_wrapped(p, e->checklist[i].step, first, "         ",
			    k && k->checked ? TR_CHECKED : TR_NORMAL, ROW_STEP, (int)i);
			if (seen) {
				if (ev)
					snprintf(buf, sizeof buf, "         %s seen in logs: %s:%lu (rank %d), Enter jumps there",
					    mark(t, 1), ev->file, ev->lineno, ev->rank);
				else
					snprintf(buf, sizeof buf, "         %s seen in logs%s%s", mark(t, 1),
					    detail ? ": " : "", detail ? detail : "");
				add(p, buf, TR_SEEN, ev ? ROW_EVENT : ROW_STEP, (int)i);
				p->rows[p->nrows - 1].ev = ev;
			}
			if (k && k->note) {
				snprintf(buf, sizeof buf, "note: %s", k->note);
				add_wrapped(p, buf, "         ", "         ", TR_DIM, ROW_STEP, (int)i);
			}
		}
	}
	if (e->fix_steps.n || e->fix_verify) {
		bullets(p, "Fix", &e->fix_steps);
		if (e->fix_verify)
			add_wrapped(p, e->fix_verify, "  verify: ", "          ", TR_NORMAL, ROW_TEXT, 0);
	}
	bullets(p, "Prevention", &e->prevention);
	if (e->fingerprint) {
		heading(p, "Fingerprint to monitor");
		add_wrapped(p, e->fingerprint, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	if (e->scaling) {
		heading(p, "From 1 GPU to 1000");
		add_wrapped(p, e->scaling, "  ", "  ", TR_NORMAL, ROW_TEXT, 0);
	}
	if (e->nenv) {
		heading(p, "Environment variables");
		for (i = 0; i < e->nenv; i++) {
			add(p, e->env[i].name, TR_NORMAL, ROW_TEXT, 0);
			add_wrapped(p, e->env[i].shows, "      ", "      ", TR_DIM, ROW_TEXT, 0);
		}
	}
	if (e->related.n) {
		heading(p, "Related (Enter opens)");
		for (i = 0; i < e->related.n; i++) {
			const struct entry *re = rulebook_entry(t->rb, e->related.v[i]);

			snprintf(buf, sizeof buf, "  > %s%s%s", e->related.v[i], re ? "  " : "",
			    re ? re->title : "");
			add(p, buf, re ? TR_LINK : TR_DIM, re ? ROW_RELATED : ROW_TEXT, 0);
			p->rows[p->nrows - 1].entry = re;
		}
	}
	if (e->nrefs) {
		heading(p, "References");
		for (i = 0; i < e->nrefs; i++) {
			snprintf(buf, sizeof buf, "%s%s%s", e->refs[i].title ? e->refs[i].title : "",
			    e->refs[i].title ? ": " : "", e->refs[i].url);
			add_wrapped(p, buf, "  - ", "    ", TR_NORMAL, ROW_TEXT, 0);
		}
	}
}

static void
build_browser(struct tui *t, struct page *p)
{
	const struct rulebook *rb = t->rb;
	char buf[512];
	size_t i;

	clear_rows(p);
	free(p->list);
	p->list = xcalloc(rb->nentries + 1, sizeof *p->list);
	p->nlist = 0;
	snprintf(buf, sizeof buf, "%zu entries%s%s%s  (/ filters, Enter opens, E all error messages)",
	    rb->nentries, p->search ? "  matching '" : "", p->search ? p->search : "",
	    p->search ? "'" : "");
	add(p, buf, TR_DIM, ROW_TEXT, 0);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		if (p->search && !strcasestr(e->id, p->search) && !strcasestr(e->title, p->search) &&
		    !strcasestr(e->summary, p->search) && !strcasestr(e->category, p->search))
			continue;
		snprintf(buf, sizeof buf, "%-30s %-13s %-8s %s", e->id, e->category, e->severity, e->title);
		add(p, buf, tui_severity_role(e->severity), ROW_RELATED, 0);
		p->rows[p->nrows - 1].entry = e;
		p->list[p->nlist++] = e;
	}
}

static void
build_text(struct page *p)
{
	const char *s = p->text, *nl;

	clear_rows(p);
	while (*s) {
		char *line;

		nl = strchr(s, '\n');
		line = xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
		add(p, line, line[0] != ' ' && line[0] ? TR_TITLE : TR_NORMAL, ROW_TEXT, 0);
		free(line);
		if (nl == NULL)
			break;
		s = nl + 1;
	}
}

static void
rebuild(struct tui *t, struct page *p)
{
	if (p->e)
		build_entry(t, p);
	else if (p->browser)
		build_browser(t, p);
	else
		build_text(p);
	if (p->sel >= (int)p->nrows)
		p->sel = p->nrows ? (int)p->nrows - 1 : 0;
}

void *
entry_new(struct tui *t, const struct entry *e)
{
	struct page *p = xcalloc(1, sizeof *p);

	p->e = e;
	p->title = xasprintf(" encyclopedia  %s", e->id);
	(void)t;
	return p;
}

void *
browser_new(struct tui *t)
{
	struct page *p = xcalloc(1, sizeof *p);

	p->browser = 1;
	p->title = xstrdup(" encyclopedia");
	p->sel = 1;
	(void)t;
	return p;
}

void *
text_new(struct tui *t, const char *title, char *s)
{
	struct page *p = xcalloc(1, sizeof *p);

	p->title = xasprintf(" %s", title);
	p->text = s;
	(void)t;
	return p;
}

static void
page_release(struct view *v)
{
	struct page *p = v->data;

	clear_rows(p);
	free(p->rows);
	free(p->title);
	free(p->text);
	free(p->search);
	free(p->list);
	free(p);
}

static void
page_draw(struct tui *t, struct view *v)
{
	struct page *p = v->data;
	int nvis = LINES - 2, i;

	rebuild(t, p);
	tui_fill(t, 0, 0, COLS, TR_HEADER);
	tui_puts(t, 0, 0, COLS, p->title, TR_HEADER);
	/* keep a few rows of context around the selection, as vim's scrolloff */
	if (p->sel - 2 < p->top)
		p->top = p->sel - 2 > 0 ? p->sel - 2 : 0;
	if (p->sel + 4 >= p->top + nvis)
		p->top = p->sel + 4 - nvis + 1;
	if (p->top > (int)p->nrows - nvis)
		p->top = (int)p->nrows - nvis > 0 ? (int)p->nrows - nvis : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	for (i = 0; i < nvis && p->top + i < (int)p->nrows; i++) {
		const struct row *r = &p->rows[p->top + i];
		int sel = p->top + i == p->sel;

		if (sel)
			tui_fill(t, 1 + i, 0, COLS, TR_SELECTION);
		tui_puts(t, 1 + i, 1, COLS - 2, r->text, sel ? TR_SELECTION : r->role);
	}
}

static void
page_find(struct tui *t, struct page *p, int dir)
{
	int i = p->sel;

	if (p->search == NULL)
		return;
	for (;;) {
		i += dir;
		if (i < 0 || i >= (int)p->nrows) {
			tui_message(t, 1, "no more matches for '%s'", p->search);
			return;
		}
		if (strcasestr(p->rows[i].text, p->search)) {
			p->sel = i;
			return;
		}
	}
}

static int
page_key(struct tui *t, struct view *v, enum action a, int code)
{
	struct page *p = v->data;
	int nvis = LINES - 2;
	struct row *r;
	char *q;

	if (code == KEY_MOUSE) {
		int y = t->mouse.y;

		if (y < 1 || p->top + y - 1 >= (int)p->nrows)
			return HR_NONE;
		p->sel = p->top + y - 1;
		if (!MOUSE_DOUBLE(t))
			return HR_REDRAW;
		a = ACT_OPEN;
	}
	r = p->nrows ? &p->rows[p->sel] : NULL;
	switch (a) {
	case ACT_UP:
		if (p->sel > 0)
			p->sel--;
		return HR_REDRAW;
	case ACT_DOWN:
		if (p->sel + 1 < (int)p->nrows)
			p->sel++;
		return HR_REDRAW;
	case ACT_PGUP:
		p->sel = p->sel - nvis > 0 ? p->sel - nvis : 0;
		return HR_REDRAW;
	case ACT_PGDN:
		p->sel = p->sel + nvis < (int)p->nrows ? p->sel + nvis : (int)p->nrows - 1;
		return HR_REDRAW;
	case ACT_TOP:
		p->sel = 0;
		return HR_REDRAW;
	case ACT_BOTTOM:
		p->sel = p->nrows ? (int)p->nrows - 1 : 0;
		return HR_REDRAW;
	case ACT_TAB:
	case ACT_NEXTEV: {
		/* the next checklist step */
		int i;

		for (i = p->sel + 1; i < (int)p->nrows; i++)
			if (p->rows[i].kind == ROW_STEP && (i == 0 || p->rows[i - 1].kind != ROW_STEP ||
			    p->rows[i - 1].idx != p->rows[i].idx)) {
				p->sel = i;
				break;
			}
		return HR_REDRAW;
	}
	case ACT_TICK:
		if (p->e && r && (r->kind == ROW_STEP || (r->kind == ROW_EVENT && r->idx >= 0 &&
		    p->sel > 0 && p->rows[p->sel - 1].kind == ROW_STEP))) {
			int idx = r->kind == ROW_STEP ? r->idx : p->rows[p->sel - 1].idx;
			const struct tick *k = ticks_get(t->ticks, p->e->id, idx);
			char *why = NULL;

			ticks_set(t->ticks, p->e->id, idx, !(k && k->checked), k ? k->note : NULL);
			if (ticks_save(t->ticks, &why) != 0) {
				tui_message(t, 1, "%s", why);
				free(why);
			} else
				tui_message(t, 0, "step %d %s", idx + 1,
				    ticks_get(t->ticks, p->e->id, idx)->checked ? "ticked" : "unticked");
		} else
			tui_message(t, 0, "Space ticks a checklist step (Tab goes to the next one)");
		return HR_REDRAW;
	case ACT_NOTE:
		if (p->e && r && r->kind == ROW_STEP) {
			const struct tick *k = ticks_get(t->ticks, p->e->id, r->idx);
			char *note = tui_prompt(t, "note: ", k ? k->note : NULL), *why = NULL;

			if (note != NULL) {
				ticks_set(t->ticks, p->e->id, r->idx, k ? k->checked : 0, note);
				if (ticks_save(t->ticks, &why) != 0) {
					tui_message(t, 1, "%s", why);
					free(why);
				}
				free(note);
			}
		}
		return HR_REDRAW;
	case ACT_OPEN:
		if (r == NULL)
			return HR_NONE;
		if (r->kind == ROW_EVENT && r->ev)
			tui_push(t, &log_ops, log_new(t, r->ev->rank, 0, r->ev->file, r->ev->lineno));
		else if (r->kind == ROW_RELATED && r->entry)
			tui_push(t, &entry_ops, entry_new(t, r->entry));
		return HR_REDRAW;
	case ACT_SEARCH:
		if ((q = tui_prompt(t, p->browser ? "filter: " : "/", NULL)) != NULL) {
			free(p->search);
			p->search = *q ? q : NULL;
			if (!*q)
				free(q);
			if (p->browser)
				p->sel = 1;
			else
				page_find(t, p, 1);
		}
		return HR_REDRAW;
	case ACT_NEXT:
	case ACT_PREV:
		page_find(t, p, a == ACT_NEXT ? 1 : -1);
		return HR_REDRAW;
	default:
		return HR_UNHANDLED;
	}
}

const struct view_ops entry_ops = {
	.name = "entry",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "Space tick  a note  Tab next step  Enter jump/open  / search  e export  q back  ? help",
};

const struct view_ops browser_ops = {
	.name = "browser",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "Enter open  / filter  E error messages  q back  ? help",
};

const struct view_ops text_ops = {
	.name = "text",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "j/k scroll  / search  n/N next/prev  q back",
};

/* --- help ---------------------------------------------------------------- */

void *
help_new(struct tui *t)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "Keys (the same on every screen where they apply)\n");
	for (i = 0; i < nkeytable; i++)
		buf_printf(&b, "  %-10s %s\n", keytable[i].keys, keytable[i].help);
	buf_adds(&b, "\nTimeline cells\n");
	if (t->utf8)
		buf_adds(&b, "  \xe2\x96\x82\xe2\x96\x83\xe2\x96\x85\xe2\x96\x87  how busy the rank's log was   \xc2\xb7  quiet   \xe2\x96\xaa  last line\n"
		    "  \xe2\x9c\x96  initiating event   ~  collateral event   !  symptom\n");
	else
		buf_adds(&b, "  _-=#  how busy the rank's log was   .  quiet   |  last line\n"
		    "  X  initiating event   ~  collateral event   !  symptom\n");
	buf_adds(&b, "\nRoles\n  initiating  failed first   suspect  pointed at in a hang\n"
	    "  collateral  reported the fallout   silent  stopped writing   healthy\n");
	return text_new(t, "help", buf_detach(&b));
}

const struct view_ops help_ops = {
	.name = "help",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "j/k scroll  q back",
};
