/* event.c: matched lines as facts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "xmalloc.h"

struct event *
event_new(const struct signature *sig, const struct line *ln, const char *file,
    const char *subject, const size_t *ov)
{
	struct event *ev = xcalloc(1, sizeof *ev);
	unsigned g;
	size_t n = ln->rawlen < EVENT_TEXT_MAX ? ln->rawlen : EVENT_TEXT_MAX;

	ev->sig = sig;
	ev->rank = ln->rank;
	ev->rank_from = ln->rank_from;
	ev->ts = ln->ts;
	ev->file = file;
	ev->lineno = ln->lineno;
	ev->offset = ln->offset;
	ev->flags = ln->flags;
	ev->text = xstrndup(ln->raw, n);
	if (ln->host != NULL && ln->hostlen > 0)
		ev->host = xstrndup(ln->host, ln->hostlen < 63 ? ln->hostlen : 63);
	ev->facts = xcalloc(sig->ngroups + 1, sizeof *ev->facts);
	for (g = 1; g <= sig->ngroups; g++) {
		size_t a = ov[2 * g], b = ov[2 * g + 1];

		if (sig->fact_of_group[g] < 0 || a == PCRE2_UNSET || b < a)
			continue;
		if (b - a > FACT_VALUE_MAX)
			b = a + FACT_VALUE_MAX;
		ev->facts[ev->nfacts].id = sig->fact_of_group[g];
		ev->facts[ev->nfacts].value = xstrndup(subject + a, b - a);
		ev->nfacts++;
	}
	return ev;
}

void
event_free(struct event *ev)
{
	size_t i;

	if (ev == NULL)
		return;
	for (i = 0; i < ev->nfacts; i++)
		free(ev->facts[i].value);
	free(ev->facts);
	free(ev->text);
	free(ev->host);
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
	return a->order < b->order ? -1 : a->order > b->order;
}
