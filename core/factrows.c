/* factrows.c: rows and their exemplars (see factrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "factrows.h"
#include "xmalloc.h"

static struct event **
slot(struct event **v, size_t cap, const struct event *ev, uint64_t h)
{
	size_t i = (size_t)(h ^ h >> 32) & (cap - 1);

	while (v[i] != NULL && !event_same_facts(v[i], ev))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

const struct event *
factrows_exemplar(struct factrows *r, const struct event *ev)
{
	struct event **at;

	if (2 * (r->nex + 1) > r->capex) {
		size_t cap = r->capex ? 2 * r->capex : 64, i;
		struct event **v = xcalloc(cap, sizeof *v);

		for (i = 0; i < r->capex; i++)
			if (r->ex[i] != NULL)
				*slot(v, cap, r->ex[i], event_facts_hash(r->ex[i])) = r->ex[i];
		free(r->ex);
		r->ex = v;
		r->capex = cap;
	}
	at = slot(r->ex, r->capex, ev, event_facts_hash(ev));
	if (*at == NULL) {
		*at = event_facts_copy(ev);
		r->nex++;
	}
	return *at;
}

size_t
factrows_add(struct factrows *r, const struct event *ev, const struct event *ex)
{
	XGROW(r->v, r->cap, r->n + 1);
	r->v[r->n].order = ev->order;
	r->v[r->n].rank = ev->rank;
	r->v[r->n].ex = ex;
	return r->n++;
}

void
factrows_release(struct factrows *r)
{
	size_t i;

	for (i = 0; i < r->capex; i++)
		event_free(r->ex[i]);
	free(r->ex);
	free(r->v);
	memset(r, 0, sizeof *r);
}
