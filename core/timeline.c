/* timeline.c: incident bins -> display columns. */
#include "config.h"

#include <string.h>

#include "timeline.h"

void
timeline_fit(const struct incident *in, int cols, struct timeline_view *v)
{
	v->cols = cols > 0 ? cols : 1;
	if (!(in->first.flags & STAMP_TIME)) {
		v->t0 = 0;
		v->span = v->cols;
		return;
	}
	v->t0 = in->first.sec;
	v->span = in->last.sec - in->first.sec + 1;
	if (v->span < v->cols)
		v->span = v->cols;
}

void
timeline_zoom(const struct incident *in, struct timeline_view *v, int col,
    double factor)
{
	int64_t at = timeline_time(v, col), span;
	int64_t full = (in->last.sec - in->first.sec) + 1;

	span = (int64_t)((double)v->span * factor);
	if (span < v->cols / 4 + 1)
		span = v->cols / 4 + 1;	/* no finer than 4 columns per second */
	if (span > full * 2 && span > v->cols)
		span = full * 2 > v->cols ? full * 2 : v->cols;
	v->t0 = at - (int64_t)((double)span * col / v->cols);
	v->span = span;
}

int
timeline_col(const struct timeline_view *v, int64_t sec)
{
	int64_t c;

	if (sec < v->t0)
		return -1;
	c = (sec - v->t0) * v->cols / v->span;
	return c >= v->cols ? v->cols : (int)c;
}

int64_t
timeline_time(const struct timeline_view *v, int col)
{
	return v->t0 + (int64_t)col * v->span / v->cols;
}

double
timeline_step(const struct timeline_view *v)
{
	return (double)v->span / v->cols;
}

void
timeline_row(const struct incident *in, int rank, const struct timeline_view *v,
    enum cell *cells)
{
	const struct rankstate *rs = incident_rank(in, rank);
	uint32_t counts[512], max = 0;
	uint16_t roles[512];
	int c, n = v->cols < 512 ? v->cols : 512, first, last;
	size_t b;

	for (c = 0; c < v->cols; c++)
		cells[c] = CELL_NONE;
	if (rs == NULL || rs->bins == NULL || rs->lines == 0 || in->binw == 0 ||
	    !(rs->last.flags & STAMP_TIME))
		return;
	memset(counts, 0, sizeof counts);
	memset(roles, 0, sizeof roles);
	/* Spread each bin over the columns it covers. */
	for (b = 0; b < TIMELINE_BINS; b++) {
		int64_t bs = in->bin0 + (int64_t)b * in->binw, be = bs + in->binw - 1;
		int c0, c1;

		unsigned nb = bins_count(rs->bins, b), rb = bins_roles(rs->bins, b);

		if (nb == 0 && rb == 0)
			continue;
		c0 = timeline_col(v, bs);
		c1 = timeline_col(v, be);
		if (c1 < 0 || c0 >= n)
			continue;
		if (c0 < 0)
			c0 = 0;
		if (c1 >= n)
			c1 = n - 1;
		for (c = c0; c <= c1; c++) {
			counts[c] += nb / (uint32_t)(c1 - c0 + 1) + (nb ? 1 : 0);
			roles[c] |= (uint16_t)rb;
		}
	}
	for (c = 0; c < n; c++)
		if (counts[c] > max)
			max = counts[c];
	first = timeline_col(v, rs->first_sec);
	last = timeline_col(v, rs->last.sec);
	for (c = 0; c < n; c++) {
		if (roles[c] & (1u << ROLE_INITIATING))
			cells[c] = CELL_INITIATING;
		else if (roles[c] & (1u << ROLE_COLLATERAL))
			cells[c] = CELL_COLLATERAL;
		else if (roles[c] & (1u << ROLE_SYMPTOM))
			cells[c] = CELL_SYMPTOM;
		else if (c < first || c > last)
			cells[c] = CELL_NONE;
		else if (c == last && last < n - 1)
			cells[c] = CELL_END;
		else if (counts[c] == 0)
			cells[c] = CELL_QUIET;
		else if (counts[c] * 4 <= max)
			cells[c] = CELL_LOW;
		else if (counts[c] * 2 <= max)
			cells[c] = CELL_MID;
		else if (counts[c] * 4 <= max * 3)
			cells[c] = CELL_HIGH;
		else
			cells[c] = CELL_FULL;
	}
}
