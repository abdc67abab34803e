/* view_browse.c: the encyclopedia, every entry in a row; / filters them
 * (id, title, summary, category), Enter opens one. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "wrap.h"
#include "xmalloc.h"

static int
shown(struct pattern *f, const struct entry *e)
{
	const char *fields[4];
	size_t i, so, eo;

	if (f == NULL)
		return 1;
	fields[0] = e->id;
	fields[1] = e->title;
	fields[2] = e->summary;
	fields[3] = e->category;
	for (i = 0; i < 4; i++)
		if (fields[i] && pattern_find(f, fields[i], strlen(fields[i]), 0, &so, &eo))
			return 1;
	return 0;
}

static void
build(struct tui *t, struct page *p)
{
	const struct rulebook *rb = t->rb;
	struct pattern *f = NULL;
	char buf[512], *why = NULL;
	size_t i, n = 0;
	int w = 0;

	page_clear(p);
	if (p->filter != NULL && (f = pattern_new(p->filter, &why)) == NULL)
		free(why);	/* refused when it was typed */
	for (i = 0; i < rb->nentries; i++) {
		if (shown(f, rb->entries[i]))
			n++;
		if ((int)wrap_cells(rb->entries[i]->id, strlen(rb->entries[i]->id)) > w)
			w = (int)wrap_cells(rb->entries[i]->id, strlen(rb->entries[i]->id));
	}
	if (f != NULL)
		snprintf(buf, sizeof buf, "%zu of %zu entries match '%s'  (/ filters, Enter opens, "
		    "E every error message)", n, rb->nentries, p->filter);
	else
		snprintf(buf, sizeof buf, "%zu entries  (/ filters, Enter opens, E every error "
		    "message)", rb->nentries);
	page_add(p, buf, TR_DIM, ROW_TEXT, 0);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		if (!shown(f, e))
			continue;
		/* the id column as wide as the longest id */
		snprintf(buf, sizeof buf, "%-*s  %-13s %-8s %s", w, e->id, e->category,
		    e->severity, e->title);
		page_add(p, buf, tui_severity_role(e->severity), ROW_RELATED, 0);
		p->rows[p->nrows - 1].entry = e;
	}
	pattern_free(f);
}

static int
key(struct tui *t, struct page *p, enum action a, int code)
{
	struct pattern *f;
	int rc;

	(void)code;
	if (a != ACT_SEARCH)
		return HR_UNHANDLED;
	if ((rc = tui_ask_pattern(t, "filter: ", p->filter, &f)) < 0)
		return HR_REDRAW;
	free(p->filter);
	p->filter = rc > 0 ? xstrdup(pattern_text(f)) : NULL;
	pattern_free(f);
	p->placed = 0;	/* back on the first entry */
	return HR_REDRAW;
}

void *
browser_new(struct tui *t)
{
	(void)t;
	return page_new("encyclopedia", build, key);
}

const struct view_ops browser_ops = {
	.name = "browser",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "Enter open  / filter  E error messages  q back  ? help",
};
