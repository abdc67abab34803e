/* event.c: matched lines as facts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "xmalloc.h"

/* One allocation holds the event, its facts and their text: events are
 * made (and most of them dropped) by the thousand. */
struct event *
event_new(const struct signature *sig, const struct line *ln, const char *file,
    const char *subject, const size_t *ov)
{
	struct event *ev;
	unsigned g;
	size_t n = ln->rawlen < EVENT_TEXT_MAX ? ln->rawlen : EVENT_TEXT_MAX;
	size_t hn = ln->host != NULL ? (ln->hostlen < 63 ? ln->hostlen : 63) : 0;
	size_t size = sizeof *ev + n + 1 + hn + 1, nf = 0;
	char *p;

	for (g = 1; g <= sig->ngroups; g++) {
		size_t a = ov[2 * g], b = ov[2 * g + 1];

		if (sig->fact_of_group[g] >= 0 && a != PCRE2_UNSET && b >= a) {
			size += (b - a > FACT_VALUE_MAX ? FACT_VALUE_MAX : b - a) + 1;
			nf++;
		}
	}
	size += (nf + 1) * sizeof *ev->facts;
	ev = xmalloc(size);
	memset(ev, 0, sizeof *ev);
	ev->sig = sig;
	ev->rank = ln->rank;
	ev->rank_from = ln->rank_from;
	ev->ts = ln->ts;
	ev->file = file;
	ev->lineno = ln->lineno;
	ev->offset = ln->offset;
	ev->flags = ln->flags;
	ev->pid = ln->pid;
	ev->label = ln->label;
	ev->node = ln->node;
	ev->facts = (struct fact *)(ev + 1);
	p = (char *)(ev->facts + nf + 1);
	ev->text = p;
	memcpy(p, ln->raw, n);
	p[n] = '\0';
	p += n + 1;
	if (hn > 0) {
		ev->host = p;
		memcpy(p, ln->host, hn);
		p[hn] = '\0';
		p += hn + 1;
	}
	for (g = 1; g <= sig->ngroups; g++) {
		size_t a = ov[2 * g], b = ov[2 * g + 1];

		if (sig->fact_of_group[g] < 0 || a == PCRE2_UNSET || b < a)
			continue;
		if (b - a > FACT_VALUE_MAX)
			b = a + FACT_VALUE_MAX;
		ev->facts[ev->nfacts].id = sig->fact_of_group[g];
		ev->facts[ev->nfacts].value = p;
		memcpy(p, subject + a, b - a);
		p[b - a] = '\0';
		p += b - a + 1;
		ev->nfacts++;
	}
	return ev;
}

void
event_free(struct event *ev)
{
	free(ev);
}

const char *
event_fact(const struct event *ev, int id)
{
	size_t i;

	for (i = 0; i < ev->nfacts; i++)
		if (ev->facts[i].id == id)
			return ev->facts[i].value;
	return NULL;
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
event_cmp_time(const struct event *a, const struct event *b)
{
	int c = stamp_cmp(&a->ts, &b->ts);

	if (c != 0)
		return c;
	/* Then the place in the stream: line order within a file, and a
	 * fixed order across files, so that the answer does not depend on
	 * which file happened to be read first (live or offline). */
	if (a->file != b->file && (c = strcmp(a->file, b->file)) != 0)
		return c < 0 ? -1 : 1;
	if (a->lineno != b->lineno)
		return a->lineno < b->lineno ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}
