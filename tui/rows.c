/* rows.c: the overview's rows (see rows.h). */
#include "config.h"

#include <stdlib.h>

#include "rows.h"
#include "xmalloc.h"

const char *const row_sort_names[SORT__COUNT] = { "by role", "by rank", "by first event" };
const char *const row_filter_names[FILTER__COUNT] = { "all ranks", "not collateral",
    "not healthy", "with events" };

static int
role_rank(enum rank_role r)
{
	static const int order[] = { 4, 0, 3, 1, 2 };	/* healthy initiating collateral suspect silent */

	return order[r];
}

static const struct incident *sort_in;

static int
cmp_role(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	const struct rankstate *rx = incident_rank(sort_in, x), *ry = incident_rank(sort_in, y);
	int ox = role_rank(rx->role), oy = role_rank(ry->role);

	if (ox != oy)
		return ox - oy;
	return x - y;
}

static int
cmp_first(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	const struct rankstate *rx = incident_rank(sort_in, x), *ry = incident_rank(sort_in, y);
	const struct event *ex = rx->first_event, *ey = ry->first_event;

	if (ex != NULL && ey != NULL && stamp_cmp(&ex->ts, &ey->ts) != 0)
		return stamp_cmp(&ex->ts, &ey->ts);
	if ((ex == NULL) != (ey == NULL))
		return ex == NULL ? 1 : -1;
	return x - y;
}

static int
cmp_rank(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

void
rows_build(struct rows *r, const struct incident *in, const struct analysis *an,
    rows_reading_fn reading, const void *arg)
{
	int keep = r->n > 0 && r->sel < (int)r->n ? r->v[r->sel] : -1;
	size_t i;

	free(r->v);
	r->v = xcalloc(in->rank_n + 1, sizeof *r->v);
	r->n = 0;
	for (i = 0; i < in->rank_n; i++) {	/* in rank order: after an analysis */
		const struct rankstate *rs = in->rank_v[i];

		if (r->filter == FILTER_EVENTS && rs->first_event == NULL)
			continue;
		if (r->filter == FILTER_TROUBLE && rs->role == RR_HEALTHY &&
		    (reading == NULL || !reading(arg, rs->rank)))
			continue;
		if (r->filter == FILTER_NO_COLLATERAL && rs->role == RR_COLLATERAL)
			continue;
		r->v[r->n++] = rs->rank;
	}
	sort_in = in;
	/* by rank: new ranks of a live run may have come since the analysis
	 * put them in order */
	if (r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, cmp_rank);
	if (r->sort == SORT_ROLE && r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, cmp_role);
	else if (r->sort == SORT_FIRST && r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, cmp_first);
	if (!r->moved)
		keep = an->initiating && an->initiating->rank >= 0 ? an->initiating->rank :
		    an->nsuspects ? an->suspects[0].rank : -1;
	r->sel = 0;
	rows_select(r, keep);
}

int
rows_select(struct rows *r, int rank)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i] == rank) {
			r->sel = (int)i;
			return 1;
		}
	return 0;
}

void
rows_release(struct rows *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
