/* encyclopedia.c: plain-text rendering of encyclopedia entries. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "encyclopedia.h"

void
encyclopedia_list(const struct rulebook *rb, struct buf *out)
{
	size_t i, w = 0;

	for (i = 0; i < rb->nentries; i++)
		if (strlen(rb->entries[i]->id) > w)
			w = strlen(rb->entries[i]->id);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		buf_printf(out, "%-*s  %-13s  %-8s  ", (int)w, e->id, e->category,
		    e->severity);
		buf_add_safe(out, e->title, strlen(e->title));
		buf_addc(out, '\n');
	}
}

void
encyclopedia_wrap(struct buf *out, const char *s, const char *indent,
    const char *first, int width)
{
	const char *p = s;
	size_t col, ind = strlen(indent);
	int line = 0;

	while (*p != '\0') {
		const char *pre = line == 0 && first != NULL ? first : indent;

		while (*p == ' ' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		buf_adds(out, pre);
		col = strlen(pre);
		for (;;) {
			const char *w = p;
			size_t wl;

			while (*w != '\0' && *w != ' ' && *w != '\n')
				w++;
			wl = (size_t)(w - p);
			if (col > ind && col + 1 + wl > (size_t)width)
				break;
			if (col > strlen(pre))
				buf_addc(out, ' '), col++;
			buf_add_safe(out, p, wl);
			col += wl;
			p = w;
			while (*p == ' ')
				p++;
			if (*p == '\0' || *p == '\n')
				break;
		}
		buf_addc(out, '\n');
		line++;
		if (*p == '\n' && p[1] == '\n')
			buf_addc(out, '\n');
	}
}

static void
heading(struct buf *out, const char *h)
{
	buf_printf(out, "\n%s\n", h);
}

static void
list(struct buf *out, const char *h, const struct strlist *l, int width)
{
	size_t i;

	if (l->n == 0)
		return;
	heading(out, h);
	for (i = 0; i < l->n; i++)
		encyclopedia_wrap(out, l->v[i], "    ", "  - ", width);
}

void
encyclopedia_show(const struct entry *e, int width, struct buf *out)
{
	size_t i;

	buf_add_safe(out, e->title, strlen(e->title));
	buf_printf(out, "\n%s · %s · %s", e->id, e->category, e->severity);
	for (i = 0; i < e->tags.n; i++)
		buf_printf(out, "%s#%s", i ? " " : "  ", e->tags.v[i]);
	buf_addc(out, '\n');
	heading(out, "Summary");
	encyclopedia_wrap(out, e->summary, "  ", NULL, width);
	if (e->mechanism) {
		heading(out, "Mechanism");
		encyclopedia_wrap(out, e->mechanism, "  ", NULL, width);
	}
	list(out, "What you observe", &e->observe, width);
	if (e->nsymptoms) {
		heading(out, "Symptoms");
		for (i = 0; i < e->nsymptoms; i++) {
			encyclopedia_wrap(out, e->symptoms[i].symptom, "    ", "  - ", width);
			encyclopedia_wrap(out, e->symptoms[i].why, "      ", "    why: ", width);
			if (e->symptoms[i].signal)
				buf_printf(out, "    signal: %s\n", e->symptoms[i].signal);
		}
	}
	list(out, "Affected", &e->affected, width);
	list(out, "Root causes", &e->root_causes, width);
	if (e->nchecklist) {
		heading(out, "Confirmation checklist");
		for (i = 0; i < e->nchecklist; i++) {
			char num[32];

			snprintf(num, sizeof num, "  %zu. ", i + 1);
			encyclopedia_wrap(out, e->checklist[i].step, "     ", num, width);
			if (e->checklist[i].signal)
				buf_printf(out, "     (the log can show this: %s)\n",
				    e->checklist[i].signal);
		}
	}
	if (e->fix_steps.n || e->fix_verify) {
		list(out, "Fix", &e->fix_steps, width);
		if (e->fix_verify)
			encyclopedia_wrap(out, e->fix_verify, "    ", "  verify: ", width);
	}
	list(out, "Prevention", &e->prevention, width);
	if (e->fingerprint) {
		heading(out, "Fingerprint to monitor");
		encyclopedia_wrap(out, e->fingerprint, "  ", NULL, width);
	}
	if (e->scaling) {
		heading(out, "From 1 GPU to 1000");
		encyclopedia_wrap(out, e->scaling, "  ", NULL, width);
	}
	list(out, "Related", &e->related, width);
	if (e->nrefs) {
		heading(out, "References");
		for (i = 0; i < e->nrefs; i++) {
			buf_adds(out, "  - ");
			if (e->refs[i].title) {
				buf_add_safe(out, e->refs[i].title, strlen(e->refs[i].title));
				buf_adds(out, ": ");
			}
			buf_add_safe(out, e->refs[i].url, strlen(e->refs[i].url));
			buf_addc(out, '\n');
		}
	}
	if (e->nsigs) {
		heading(out, "Signatures");
		for (i = 0; i < e->nsigs; i++)
			buf_printf(out, "  %-24s %s\n", e->sigs[i].id, role_name(e->sigs[i].role));
	}
}
