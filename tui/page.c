/* page.c: the scrollable page of rows (see page.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "wrap.h"
#include "xmalloc.h"

struct page *
page_new(const char *title, page_build_fn build, page_key_fn key)
{
	struct page *p = xcalloc(1, sizeof *p);

	p->title = xasprintf(" %s", title);
	p->build = build;
	p->key = key;
	return p;
}

void
page_add(struct page *p, const char *text, enum theme_role role, enum rowkind kind, int idx)
{
	struct row *r;

	XGROW(p->rows, p->cap, p->nrows + 1);
	r = &p->rows[p->nrows++];
	memset(r, 0, sizeof *r);
	r->text = xstrdup(text);
	r->role = role;
	r->kind = kind;
	r->idx = idx;
	r->first = 1;
}

void
page_add_wrapped(struct page *p, const char *text, const char *first, const char *indent,
    enum theme_role role, enum rowkind kind, int idx)
{
	struct strlist l = { NULL, 0 };
	size_t i, w = (size_t)(COLS > 20 ? COLS - 2 : 18) - strlen(indent);
	char *line;

	wrap_text(text, (int)w, &l);
	for (i = 0; i < l.n; i++) {
		line = xasprintf("%s%s", i == 0 ? first : indent, l.v[i]);
		page_add(p, line, role, kind, idx);
		p->rows[p->nrows - 1].first = i == 0;
		free(line);
	}
	wrap_free(&l);
}

void
page_heading(struct page *p, const char *h)
{
	page_add(p, "", TR_NORMAL, ROW_TEXT, 0);
	page_add(p, h, TR_TITLE, ROW_TEXT, 0);
}

void
page_bullets(struct page *p, const char *h, const struct strlist *l)
{
	size_t i;

	if (l->n == 0)
		return;
	page_heading(p, h);
	for (i = 0; i < l->n; i++)
		page_add_wrapped(p, l->v[i], "  - ", "    ", TR_NORMAL, ROW_TEXT, 0);
}

void
page_clear(struct page *p)
{
	size_t i;

	for (i = 0; i < p->nrows; i++)
		free(p->rows[i].text);
	p->nrows = 0;
}

int
page_actionable(const struct row *r)
{
	return r->first && ((r->kind == ROW_EVENT && r->ev != NULL) || r->kind == ROW_STEP ||
	    (r->kind == ROW_RELATED && r->entry != NULL) || r->kind == ROW_RANK);
}

static int
blank(const struct row *r)
{
	return r->text[strspn(r->text, " ")] == '\0';
}

void
page_release(struct view *v)
{
	struct page *p = v->data;

	page_clear(p);
	free(p->rows);
	free(p->title);
	free(p->text);
	free(p->filter);
	pattern_free(p->search);
	free(p);
}

static int
visible(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

void
page_land(struct page *p, int i)
{
	int nvis = visible();

	p->sel = i;
	if (i < p->top || i >= p->top + nvis)
		p->top = i - nvis / 3;
}

void
page_draw(struct tui *t, struct view *v)
{
	struct page *p = v->data;
	int nvis = visible(), i;

	p->build(t, p);
	if (p->sel >= (int)p->nrows)
		p->sel = p->nrows ? (int)p->nrows - 1 : 0;
	if (!p->placed && p->nrows > 0) {
		/* start on the first thing to act on (the evidence, in an entry) */
		for (i = 0; i < (int)p->nrows && !page_actionable(&p->rows[i]); i++)
			;
		if (i < (int)p->nrows)
			page_land(p, i);
		p->placed = 1;
	}
	tui_fill(t, 0, 0, COLS, TR_HEADER);
	tui_puts(t, 0, 0, COLS, p->title, TR_HEADER);
	/* a few rows of context around the selection, as vim's scrolloff */
	if (p->sel - 2 < p->top)
		p->top = p->sel - 2 > 0 ? p->sel - 2 : 0;
	if (p->sel + 4 >= p->top + nvis)
		p->top = p->sel + 4 - nvis + 1;
	/* never blank rows below while there are rows above */
	if (p->top > (int)p->nrows - nvis)
		p->top = (int)p->nrows - nvis > 0 ? (int)p->nrows - nvis : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	for (i = 0; i < nvis && p->top + i < (int)p->nrows; i++) {
		const struct row *r = &p->rows[p->top + i];
		int sel = p->top + i == p->sel;

		if (sel)
			tui_fill(t, 1 + i, 0, COLS, TR_SELECTION);
		tui_put_marked(t, 1 + i, 1, COLS - 2, r->text, strlen(r->text), 0,
		    sel ? TR_SELECTION : r->role, p->search);
	}
}

/* The next (dir 1) or previous (-1) row to stop on from the selection:
 * any row but a blank one, or (items) the first row of an item to act on.
 * -1 when there is none. */
static int
next_row(const struct page *p, int dir, int items)
{
	int i;

	for (i = p->sel + dir; i >= 0 && i < (int)p->nrows; i += dir)
		if (items ? page_actionable(&p->rows[i]) : !blank(&p->rows[i]))
			return i;
	return -1;
}

/* n/N: the next row that matches, wrapping around the page like vim. */
static void
find(struct tui *t, struct page *p, int dir)
{
	int k, n = (int)p->nrows;
	size_t so, eo;

	if (p->search == NULL) {
		tui_message(t, 0, "no search yet: / searches");
		return;
	}
	for (k = 1; k <= n; k++) {
		int i = ((p->sel + dir * k) % n + n) % n;
		const char *s = p->rows[i].text;

		if (pattern_find(p->search, s, strlen(s), 0, &so, &eo)) {
			if ((dir > 0 && i <= p->sel) || (dir < 0 && i >= p->sel))
				tui_message(t, 0, dir > 0 ? "search hit BOTTOM, continuing at TOP" :
				    "search hit TOP, continuing at BOTTOM");
			page_land(p, i);
			return;
		}
	}
	tui_message(t, 1, "pattern not found: %s", pattern_text(p->search));
}

int
page_key(struct tui *t, struct view *v, enum action a, int code)
{
	struct page *p = v->data;
	int nvis = visible(), i, res;
	struct row *r;
	struct pattern *pat;

	if (code == KEY_MOUSE) {
		int y = t->mouse.y;

		if (y < 1 || p->top + y - 1 >= (int)p->nrows)
			return HR_NONE;
		p->sel = p->top + y - 1;
		if (!MOUSE_DOUBLE(t))
			return HR_REDRAW;
		a = ACT_OPEN;
	}
	if (p->key != NULL && (res = p->key(t, p, a, code)) != HR_UNHANDLED)
		return res;
	r = p->nrows ? &p->rows[p->sel] : NULL;
	switch (a) {
	case ACT_UP:
	case ACT_DOWN:
		if ((i = next_row(p, a == ACT_DOWN ? 1 : -1, 0)) >= 0)
			p->sel = i;
		return HR_REDRAW;
	case ACT_PGUP:
		p->sel = p->sel - nvis > 0 ? p->sel - nvis : 0;
		p->top = p->top - nvis > 0 ? p->top - nvis : 0;
		return HR_REDRAW;
	case ACT_PGDN:
		p->sel = p->sel + nvis < (int)p->nrows ? p->sel + nvis : (int)p->nrows - 1;
		p->top += nvis;
		return HR_REDRAW;
	case ACT_TOP:
		p->sel = p->top = 0;
		return HR_REDRAW;
	case ACT_BOTTOM:
		p->sel = p->nrows ? (int)p->nrows - 1 : 0;
		return HR_REDRAW;
	case ACT_TAB:
	case ACT_BACKTAB:
		if ((i = next_row(p, a == ACT_TAB ? 1 : -1, 1)) >= 0)
			page_land(p, i);
		else
			tui_message(t, 0, "nothing to act on %s", a == ACT_TAB ? "below" : "above");
		return HR_REDRAW;
	case ACT_OPEN:
		if (r == NULL)
			return HR_NONE;
		if (r->kind == ROW_EVENT && r->ev)
			tui_push(t, &log_ops, log_new(t, r->ev->rank, 0, event_file(r->ev), r->ev->lineno));
		else if (r->kind == ROW_RELATED && r->entry)
			tui_push(t, &entry_ops, entry_new(t, r->entry));
		return HR_REDRAW;
	case ACT_SEARCH:
		if (tui_ask_pattern(t, "/", NULL, &pat) > 0) {
			pattern_free(p->search);
			p->search = pat;
			find(t, p, 1);
		}
		return HR_REDRAW;
	case ACT_NEXT:
	case ACT_PREV:
		find(t, p, a == ACT_NEXT ? 1 : -1);
		return HR_REDRAW;
	default:
		return HR_UNHANDLED;
	}
}
