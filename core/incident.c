/* incident.c: collect events per rank; reason about who failed first.
 * The reasoning is written out in doc/analysis.md; keep the two in step.
 * Nothing here knows an entry by name: what a failure looks like lives in
 * the rule files, how failures relate across ranks lives here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "incident.h"
#include "xmalloc.h"

#define TIE_WINDOW	2	/* s: closer than this, clocks cannot order two failures */
#define SKEW_MATTERS	60	/* s: gaps below this may be clock skew across hosts */
#define SILENT_BEFORE	30	/* s: silent this long before the first timeout */
#define SILENT_MIN	120	/* s: silent this long while others log */

static const char *const verdict_names[] = { "healthy", "failure", "hang" };
static const char *const rr_names[] = { "healthy", "initiating", "collateral",
    "suspect", "silent" };

const char *
verdict_name(enum verdict v)
{
	return verdict_names[v];
}

const char *
rank_role_name(enum rank_role r)
{
	return r < RR__COUNT ? rr_names[r] : "?";
}

struct incident *
incident_new(const struct rulebook *rb)
{
	struct incident *in = xcalloc(1, sizeof *in);

	in->rb = rb;
	in->unattributed.rank = -1;
	in->unattributed.step = -1;
	in->step_fact = rulebook_find_fact(rb, "step");
	in->rank_fact = rulebook_find_fact(rb, "rank");
	in->host_fact = rulebook_find_fact(rb, "host");
	in->exit_fact = rulebook_find_fact(rb, "exitcode");
	return in;
}

static void
analysis_release(struct analysis *an)
{
	size_t i;

	free(an->reason);
	for (i = 0; i < an->nsuspects; i++)
		free(an->suspects[i].reason);
	free(an->suspects);
	for (i = 0; i < an->ndiags; i++) {
		free(an->diags[i].evidence_events);
		free(an->diags[i].conds);
	}
	free(an->diags);
	for (i = 0; i < an->nconds; i++) {
		free(an->conds[i].blamed);
		free(an->conds[i].detail);
	}
	free(an->conds);
	memset(an, 0, sizeof *an);
}

static void
rankstate_release(struct rankstate *rs)
{
	free(rs->host);
	free(rs->sigcount);
	free(rs->lastslot);
	free(rs->nums);
	free(rs->why);
}

void
incident_free(struct incident *in)
{
	size_t i;

	if (in == NULL)
		return;
	analysis_release(&in->an);
	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL) {
			rankstate_release(in->ranks[i]);
			free(in->ranks[i]);
		}
	free(in->ranks);
	rankstate_release(&in->unattributed);
	for (i = 0; i < in->nevents; i++)
		event_free(in->events[i]);
	free(in->events);
	free(in->byrank);
	free(in->rankstart);
	free(in->bysig);
	free(in->sigstart);
	free(in);
}

struct rankstate *
incident_rank(const struct incident *in, int rank)
{
	if (rank < 0)
		return (struct rankstate *)&in->unattributed;
	if ((size_t)rank >= in->nranks)
		return NULL;
	return in->ranks[rank];
}

static struct rankstate *
rank_slot(struct incident *in, int rank)
{
	struct rankstate *rs;

	if (rank < 0 || rank >= INCIDENT_MAX_RANK)
		return &in->unattributed;
	if ((size_t)rank >= in->capranks) {
		size_t n = in->capranks ? in->capranks : 16;

		while (n <= (size_t)rank)
			n *= 2;
		in->ranks = xrealloc(in->ranks, n * sizeof *in->ranks);
		memset(in->ranks + in->capranks, 0, (n - in->capranks) * sizeof *in->ranks);
		in->capranks = n;
	}
	if ((size_t)rank >= in->nranks)
		in->nranks = (size_t)rank + 1;
	if ((rs = in->ranks[rank]) == NULL) {
		rs = in->ranks[rank] = xcalloc(1, sizeof *rs);
		rs->rank = rank;
		rs->step = -1;
	}
	return rs;
}

size_t
incident_active_ranks(const struct incident *in)
{
	size_t i, n = 0;

	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL && in->ranks[i]->lines > 0)
			n++;
	return n;
}

/* --- the timeline ------------------------------------------------------- */

static void
rebin_one(struct rankstate *rs, int64_t old0, int64_t oldw, int64_t new0,
    int64_t neww)
{
	uint32_t bins[TIMELINE_BINS];
	uint16_t roles[TIMELINE_BINS];
	size_t i;

	memset(bins, 0, sizeof bins);
	memset(roles, 0, sizeof roles);
	for (i = 0; i < TIMELINE_BINS; i++) {
		int64_t t = old0 + (int64_t)i * oldw, j;

		if (rs->bins[i] == 0 && rs->binrole[i] == 0)
			continue;
		j = (t - new0) / neww;
		if (j < 0)
			j = 0;
		if (j >= TIMELINE_BINS)
			j = TIMELINE_BINS - 1;
		bins[j] += rs->bins[i];
		roles[j] |= rs->binrole[i];
	}
	memcpy(rs->bins, bins, sizeof bins);
	memcpy(rs->binrole, roles, sizeof roles);
}

static size_t
bin_of(struct incident *in, int64_t sec)
{
	int64_t new0 = in->bin0, neww = in->binw, i;

	if (in->binw == 0) {
		in->bin0 = sec;
		in->binw = 1;
		return 0;
	}
	/* binw is a power of 2: a shift, not a division, on every line */
	if (sec >= in->bin0 && sec < in->bin0 + in->binw * TIMELINE_BINS)
		return (size_t)((uint64_t)(sec - in->bin0) >>
		    __builtin_ctzll((unsigned long long)in->binw));
	if (sec < new0)
		new0 = sec;
	while (sec >= new0 + neww * TIMELINE_BINS || in->bin0 + in->binw *
	    TIMELINE_BINS > new0 + neww * TIMELINE_BINS)
		neww *= 2;
	rebin_one(&in->unattributed, in->bin0, in->binw, new0, neww);
	for (i = 0; i < (int64_t)in->nranks; i++)
		if (in->ranks[i] != NULL)
			rebin_one(in->ranks[i], in->bin0, in->binw, new0, neww);
	in->bin0 = new0;
	in->binw = neww;
	return (size_t)((sec - in->bin0) / in->binw);
}

/* a before b, both with a time (stamp_cmp, inlined for every line) */
static inline int
earlier(const struct stamp *a, const struct stamp *b)
{
	return a->sec < b->sec || (a->sec == b->sec && a->nsec < b->nsec);
}

void
incident_add_line(struct incident *in, const struct line *ln)
{
	struct rankstate *rs = rank_slot(in, ln->rank);

	in->analysed = 0;
	in->lines++;
	in->bytes += ln->rawlen + 1;
	rs->lines++;
	rs->bytes += ln->rawlen + 1;
	if (ln->host != NULL && rs->host == NULL && ln->hostlen > 0 && ln->hostlen < 64)
		rs->host = xstrndup(ln->host, ln->hostlen);
	if (!(ln->ts.flags & STAMP_TIME) || (ln->ts.flags & (STAMP_INHERITED | STAMP_REPORTED)))
		return;
	in->timed_lines++;
	if (!(rs->first.flags & STAMP_TIME) || earlier(&ln->ts, &rs->first))
		rs->first = ln->ts;
	if (!(rs->last.flags & STAMP_TIME) || earlier(&rs->last, &ln->ts))
		rs->last = ln->ts;
	if (!(in->first.flags & STAMP_TIME) || earlier(&ln->ts, &in->first))
		in->first = ln->ts;
	if (!(in->last.flags & STAMP_TIME) || earlier(&in->last, &ln->ts))
		in->last = ln->ts;
	rs->bins[bin_of(in, ln->ts.sec)]++;
}

/* A fact's value as a number (what strtod reads of all of it, not NaN).
 * Plain decimals of up to 15 digits, most facts, skip strtod: their
 * digits and the power of ten are exact doubles, so one division rounds
 * exactly as strtod does. */
static int
fact_number(const char *v, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *p = v + (*v == '-');
	char *end;
	int64_t n = 0;
	int digits = 0, frac = -1;

	for (; digits <= 15; p++) {
		if (*p >= '0' && *p <= '9') {
			n = n * 10 + (*p - '0');
			digits++;
			if (frac >= 0)
				frac++;
		} else if (*p == '.' && frac < 0)
			frac = 0;
		else
			break;
	}
	if (digits > 0 && digits <= 15 && *p == '\0' && frac != 0) {
		double x = (double)n / pow10[frac > 0 ? frac : 0];

		*out = *v == '-' ? -x : x;
		return 1;
	}
	*out = strtod(v, &end);
	return end != v && *end == '\0' && *out == *out;
}

static void
numstats_add(struct rankstate *rs, const struct event *ev)
{
	size_t i, j;

	for (i = 0; i < ev->nfacts; i++) {
		const char *v = ev->facts[i].value;
		double x;
		struct numstat *ns = NULL;

		if (!fact_number(v, &x))
			continue;
		for (j = 0; j < rs->nnums; j++)
			if (rs->nums[j].sig == ev->sig->index && rs->nums[j].fact == ev->facts[i].id) {
				ns = &rs->nums[j];
				break;
			}
		if (ns == NULL) {
			XGROW(rs->nums, rs->capnums, rs->nnums + 1);
			ns = &rs->nums[rs->nnums++];
			ns->sig = ev->sig->index;
			ns->fact = ev->facts[i].id;
			ns->count = 0;
			ns->sum = 0;
			ns->min = ns->max = x;
		}
		ns->count++;
		ns->sum += x;
		if (x < ns->min)
			ns->min = x;
		if (x > ns->max)
			ns->max = x;
		ns->last = x;
	}
}

void
incident_add_event(struct incident *in, struct event *ev)
{
	struct rankstate *rs;
	size_t si = ev->sig->index, nsigs = in->rb->nsigs;
	double v;

	in->analysed = 0;
	ev->order = in->order++;
	/* A rank named in the message (torchrun summary, srun's "task N")
	 * beats a group-local one and no rank at all. */
	if (in->rank_fact >= 0 && ev->rank_from <= RANK_GROUP) {
		const char *r = event_fact(ev, in->rank_fact);

		if (r != NULL && *r >= '0' && *r <= '9' && strspn(r, "0123456789") == strlen(r)) {
			ev->rank = atoi(r);
			ev->rank_from = RANK_NAMED;
		}
	}
	rs = rank_slot(in, ev->rank);
	if (ev->rank >= INCIDENT_MAX_RANK)
		ev->rank = -1;
	if (rs->sigcount == NULL) {
		size_t i;

		rs->sigcount = xcalloc(nsigs + 1, sizeof *rs->sigcount);
		rs->lastslot = xmalloc((nsigs + 1) * sizeof *rs->lastslot);
		for (i = 0; i <= nsigs; i++)
			rs->lastslot[i] = -1;
	}
	if (ev->sig->role == ROLE_PROGRESS && in->step_fact >= 0 &&
	    event_fact_num(ev, in->step_fact, &v) && v >= rs->step) {
		rs->step = v;
		rs->step_ts = ev->ts;
	}
	if (ev->host != NULL && rs->host == NULL)
		rs->host = xstrdup(ev->host);
	if ((ev->ts.flags & STAMP_TIME) && in->binw != 0 && ev->sig->role != ROLE_PROGRESS &&
	    ev->sig->role != ROLE_CONTEXT)
		rs->binrole[bin_of(in, ev->ts.sec)] |= (uint16_t)(1u << ev->sig->role);
	numstats_add(rs, ev);
	rs->sigcount[si]++;
	if (rs->sigcount[si] <= INCIDENT_KEEP) {
		XGROW(in->events, in->capevents, in->nevents + 1);
		in->events[in->nevents++] = ev;
	} else if (rs->lastslot[si] < 0) {
		XGROW(in->events, in->capevents, in->nevents + 1);
		rs->lastslot[si] = (int32_t)in->nevents;
		in->events[in->nevents++] = ev;
	} else {
		event_free(in->events[rs->lastslot[si]]);
		in->events[rs->lastslot[si]] = ev;
	}
}

/* --- helpers ------------------------------------------------------------- */

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

static int
size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

char *
ranks_compress(const int *ranks, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && ranks[j + 1] == ranks[j] + 1; j++)
			;
		if (b.len)
			buf_addc(&b, ',');
		if (j == i)
			buf_printf(&b, "%d", ranks[i]);
		else
			buf_printf(&b, "%d-%d", ranks[i], ranks[j]);
		i = j + 1;
	}
	return buf_detach(&b);
}

char *
incident_ranks_with_role(const struct incident *in, enum rank_role r)
{
	int *v = xmalloc(sizeof *v * (in->nranks + 1));
	size_t i, n = 0;
	char *s;

	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL && in->ranks[i]->role == r)
			v[n++] = (int)i;
	s = ranks_compress(v, n);
	free(v);
	return s;
}

static int
is_active(const struct incident *in, int rank)
{
	return rank >= 0 && (size_t)rank < in->nranks && in->ranks[rank] != NULL &&
	    in->ranks[rank]->lines > 0;
}

/* Quality of an event's time for ordering: own time beats an inherited
 * one beats a launcher's report beats none. */
static int
time_quality(const struct event *ev)
{
	if (!(ev->ts.flags & STAMP_TIME))
		return 0;
	if (ev->ts.flags & STAMP_REPORTED)
		return 1;
	if (ev->ts.flags & STAMP_INHERITED)
		return 2;
	return 3;
}

static int
role_of(const struct event *ev)
{
	return ev->sig->role;
}

static const char *
host_of(const struct incident *in, int rank)
{
	const struct rankstate *rs = incident_rank(in, rank);

	return rs != NULL ? rs->host : NULL;
}

/* --- conditions ------------------------------------------------------- */

struct tuple {
	const char	*group;
	const char	*value;
	int		 rank;
	size_t		 order;
	double		 num;
};

static int
tuple_cmp(const void *a, const void *b)
{
	const struct tuple *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (c != 0)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Does condition c read this event? md: scratch match data (one pair is
 * enough: a where pattern only has to match). */
static int
cond_reads(const struct condition *c, const unsigned char *from,
    const struct event *ev, pcre2_match_data *md)
{
	size_t i;

	if (!from[ev->sig->index])
		return 0;
	for (i = 0; i < c->nwhere; i++) {
		const char *v = event_fact(ev, c->where[i].fact_id);

		if (v == NULL || c->where[i].re == NULL ||
		    pcre2_match(c->where[i].re, (PCRE2_SPTR)v, strlen(v), 0, 0, md, NULL) < 0)
			return 0;
	}
	return 1;
}

/* Blamed ranks are sorted and made unique when the condition is done. */
static void
blame_add(struct condresult *r, int rank)
{
	XGROW(r->blamed, r->capblamed, r->nblamed + 1);
	r->blamed[r->nblamed++] = rank;
}

static char *
fmt_num(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return xasprintf("%.0f", v);
	return xasprintf("%g", v);
}

/* differs: per group, one value per rank (its latest). */
static void
eval_differs(const struct incident *in, const struct condition *c,
    struct tuple *t, size_t n, struct condresult *r)
{
	size_t i, j, k, best_ranks = 0;

	qsort(t, n, sizeof *t, tuple_cmp);
	/* keep each rank's latest value per group */
	for (i = j = 0; i < n; i++) {
		if (j > 0 && strcmp(t[j - 1].group, t[i].group) == 0 && t[j - 1].rank == t[i].rank)
			t[j - 1] = t[i];
		else
			t[j++] = t[i];
	}
	n = j;
	for (i = 0; i < n; i = j) {
		size_t distinct = 0, maxc = 0, m;
		const char *vals[16];
		size_t cnt[16];

		for (j = i; j < n && strcmp(t[j].group, t[i].group) == 0; j++) {
			for (m = 0; m < distinct; m++)
				if (strcmp(vals[m], t[j].value) == 0)
					break;
			if (m == distinct && distinct < 16) {
				vals[distinct] = t[j].value;
				cnt[distinct++] = 0;
			}
			if (m < 16)
				cnt[m]++;
		}
		if (distinct < 2)
			continue;
		r->met = 1;
		for (m = 0; m < distinct; m++)
			if (cnt[m] > maxc)
				maxc = cnt[m];
		for (m = 0; m < distinct; m++)
			if (cnt[m] < maxc && c->blame == BLAME_MINORITY)
				for (k = i; k < j; k++)
					if (strcmp(t[k].value, vals[m]) == 0)
						blame_add(r, t[k].rank);
		if (j - i > best_ranks) {
			struct buf b = BUF_INIT;
			size_t shown = 0;

			best_ranks = j - i;
			buf_printf(&b, "%s ", c->fact);
			for (m = 0; m < distinct && shown < 4; m++, shown++) {
				int one = -1;

				for (k = i; k < j; k++)
					if (strcmp(t[k].value, vals[m]) == 0) {
						one = t[k].rank;
						break;
					}
				if (m)
					buf_adds(&b, ", ");
				if (cnt[m] == 1)
					buf_printf(&b, "%s on rank %d", vals[m], one);
				else
					buf_printf(&b, "%s on %zu ranks", vals[m], cnt[m]);
			}
			if (c->group_by != NULL && *t[i].group)
				buf_printf(&b, " (same %s %s)", c->group_by, t[i].group);
			free(r->detail);
			r->detail = buf_detach(&b);
		}
	}
	(void)in;
}

static int
double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* outlier: some rank's value is factor times above (or, blaming the
 * lowest, below) the median of all ranks' values. */
static void
outlier(const struct condition *c, const double *vals, const int *rk, size_t nr,
    struct condresult *r)
{
	double *sorted, med;
	size_t k;
	int low = c->blame == BLAME_LOWEST;

	if (nr < 3)
		return;
	sorted = xmalloc(sizeof *sorted * nr);
	memcpy(sorted, vals, sizeof *sorted * nr);
	qsort(sorted, nr, sizeof *sorted, double_cmp);
	med = sorted[nr / 2];
	free(sorted);
	if (med <= 0)
		return;
	for (k = 0; k < nr; k++) {
		if (low ? vals[k] * c->factor > med : vals[k] < c->factor * med)
			continue;
		r->met = 1;
		if (c->blame == BLAME_HIGHEST || low)
			blame_add(r, rk[k]);
		if (r->detail == NULL) {
			char *a = fmt_num(vals[k]), *b = fmt_num(med);

			r->detail = xasprintf("%s %s on rank %d, median %s", c->fact, a,
			    rk[k], b);
			free(a);
			free(b);
		}
	}
}

/* outlier without where or group_by: each rank's mean over every event. */
static int
outlier_from_stats(const struct incident *in, const struct condition *c,
    struct condresult *r)
{
	double *vals = xmalloc(sizeof *vals * (in->nranks + 1));
	int *rk = xmalloc(sizeof *rk * (in->nranks + 1));
	size_t i, j, k, nr = 0;

	for (i = 0; i < in->nranks; i++) {
		const struct rankstate *rs = in->ranks[i];
		double sum = 0;
		uint32_t cnt = 0;

		if (rs == NULL)
			continue;
		for (j = 0; j < rs->nnums; j++)
			for (k = 0; k < c->nfromsig; k++)
				if (rs->nums[j].sig == c->fromsig[k]->index &&
				    rs->nums[j].fact == c->fact_id) {
					sum += rs->nums[j].sum;
					cnt += rs->nums[j].count;
				}
		if (cnt == 0)
			continue;
		vals[nr] = sum / cnt;
		rk[nr++] = (int)i;
	}
	outlier(c, vals, rk, nr, r);
	free(vals);
	free(rk);
	return 1;
}

/* behind / outlier: numeric, one value per rank (max / mean), per group. */
static void
eval_numeric(const struct incident *in, const struct condition *c,
    struct tuple *t, size_t n, struct condresult *r)
{
	size_t i, j, k, nr;
	double *vals = xmalloc(sizeof *vals * (n + 1));
	int *rk = xmalloc(sizeof *rk * (n + 1));

	(void)in;
	qsort(t, n, sizeof *t, tuple_cmp);
	for (i = 0; i < n; i = j) {
		/* per rank in this group */
		nr = 0;
		for (j = i; j < n && strcmp(t[j].group, t[i].group) == 0; ) {
			double agg = t[j].num, sum = 0;
			size_t cnt = 0;
			int rank = t[j].rank;

			for (k = j; k < n && strcmp(t[k].group, t[i].group) == 0 &&
			    t[k].rank == rank; k++) {
				if (t[k].num > agg)
					agg = t[k].num;
				sum += t[k].num;
				cnt++;
			}
			vals[nr] = c->test == TEST_OUTLIER ? sum / (double)cnt : agg;
			rk[nr++] = rank;
			j = k;
		}
		if (nr < 2)
			continue;
		if (c->test == TEST_BEHIND) {
			double lo = vals[0], hi = vals[0];

			for (k = 1; k < nr; k++) {
				if (vals[k] < lo)
					lo = vals[k];
				if (vals[k] > hi)
					hi = vals[k];
			}
			if (hi - lo < c->min_gap)
				continue;
			r->met = 1;
			{
				size_t nlo = 0;
				char *a = fmt_num(lo), *b = fmt_num(hi);

				for (k = 0; k < nr; k++)
					if (vals[k] == lo) {
						if (c->blame == BLAME_LOWEST)
							blame_add(r, rk[k]);
						nlo++;
					}
				free(r->detail);
				if (nlo == 1)
					for (k = 0; k < nr; k++)
						if (vals[k] == lo)
							r->detail = xasprintf("%s %s on rank %d, others up to %s",
							    c->fact, a, rk[k], b);
				if (nlo != 1)
					r->detail = xasprintf("%s %s on %zu ranks, others up to %s",
					    c->fact, a, nlo, b);
				free(a);
				free(b);
			}
		} else
			outlier(c, vals, rk, nr, r);
	}
	free(vals);
	free(rk);
}

static void
eval_condition(const struct incident *in, const struct condition *c,
    struct condresult *r)
{
	struct tuple *t;
	unsigned char *has = xcalloc(in->nranks + 1, 1);
	unsigned char *from = xcalloc(in->rb->nsigs + 1, 1);	/* by signature index */
	size_t *idx;
	size_t i, x, nidx = 0, n = 0, nr = 0;
	int pg = rulebook_find_fact(in->rb, "pg");
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);

	r->cond = c;
	/* the events of its signatures, in arrival order */
	for (i = 0; i < c->nfromsig; i++) {
		size_t si = c->fromsig[i]->index;

		if (!from[si])
			nidx += in->sigstart[si + 1] - in->sigstart[si];
		from[si] = 1;
	}
	idx = xmalloc(sizeof *idx * (nidx + 1));
	t = xmalloc(sizeof *t * (nidx + 1));
	memset(from, 0, in->rb->nsigs + 1);
	for (i = 0, nidx = 0; i < c->nfromsig; i++) {
		size_t si = c->fromsig[i]->index, k;

		if (from[si])
			continue;
		from[si] = 1;
		for (k = in->sigstart[si]; k < in->sigstart[si + 1]; k++)
			idx[nidx++] = in->bysig[k];
	}
	if (c->nfromsig > 1)
		qsort(idx, nidx, sizeof *idx, size_cmp);
	for (x = 0; x < nidx; x++) {
		const struct event *ev = in->events[idx[x]];
		const char *v = NULL, *g = "";

		if (ev->rank < 0 || !cond_reads(c, from, ev, md))
			continue;
		if (c->fact_id >= 0 && (v = event_fact(ev, c->fact_id)) == NULL)
			continue;
		if (c->group_id >= 0 && (g = event_fact(ev, c->group_id)) == NULL)
			continue;
		if (c->group_id < 0 && c->test == TEST_BEHIND && pg >= 0 &&
		    event_fact(ev, pg) != NULL)
			g = event_fact(ev, pg);
		if (!has[ev->rank]) {
			has[ev->rank] = 1;
			nr++;
		}
		t[n].group = g;
		t[n].value = v ? v : "";
		t[n].rank = ev->rank;
		t[n].order = ev->order;
		if (v == NULL || !fact_number(v, &t[n].num))
			t[n].num = v ? strtod(v, NULL) : 0;
		n++;
	}
	switch (c->test) {
	case TEST_DIFFERS:
		eval_differs(in, c, t, n, r);
		break;
	case TEST_OUTLIER:
		if (c->nwhere == 0 && c->group_id < 0) {
			outlier_from_stats(in, c, r);
			break;
		}
		/* FALLTHROUGH */
	case TEST_BEHIND:
		eval_numeric(in, c, t, n, r);
		break;
	case TEST_MISSING:
		if (nr >= (size_t)c->min_ranks) {
			size_t miss = 0;
			int first = -1;

			for (i = 0; i < in->nranks; i++)
				if (is_active(in, (int)i) && !has[i]) {
					if (first < 0)
						first = (int)i;
					miss++;
					if (c->blame == BLAME_MISSING)
						blame_add(r, (int)i);
				}
			if (miss > 0) {
				r->met = 1;
				if (miss == 1)
					r->detail = xasprintf("%zu ranks reported it, rank %d did not",
					    nr, first);
				else
					r->detail = xasprintf("%zu ranks reported it, %zu did not",
					    nr, miss);
			}
		}
		break;
	case TEST_COUNT:
		if (nr >= (size_t)c->min_ranks) {
			r->met = 1;
			r->detail = xasprintf("on %zu ranks", nr);
		}
		break;
	}
	if (r->nblamed > 1) {
		size_t a, b;

		qsort(r->blamed, r->nblamed, sizeof *r->blamed, int_cmp);
		for (a = b = 1; a < r->nblamed; a++)
			if (r->blamed[a] != r->blamed[b - 1])
				r->blamed[b++] = r->blamed[a];
		r->nblamed = b;
	}
	pcre2_match_data_free(md);
	free(t);
	free(has);
	free(from);
	free(idx);
}

/* --- suspects ------------------------------------------------------------- */

struct scoreboard {
	double		*score;
	unsigned char	*blamed;	/* pointed at by a condition */
	struct buf	*why;
	size_t		 n;
};

static void
suspect_add(struct scoreboard *sb, int rank, double score, const char *why)
{
	if (rank < 0 || (size_t)rank >= sb->n)
		return;
	sb->score[rank] += score;
	if (sb->why[rank].len)
		buf_adds(&sb->why[rank], "; ");
	buf_adds(&sb->why[rank], why);
}

static const struct incident *sort_in;

static int
suspect_cmp(const void *a, const void *b)
{
	const struct suspect *x = a, *y = b;
	const struct rankstate *rx, *ry;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	rx = incident_rank(sort_in, x->rank);
	ry = incident_rank(sort_in, y->rank);
	if (rx && ry && (rx->last.flags & STAMP_TIME) && (ry->last.flags & STAMP_TIME)) {
		int c = stamp_cmp(&rx->last, &ry->last);

		if (c != 0)
			return c;
	}
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* --- kernel lines to ranks ------------------------------------------------ */

/* PCI bus and device from "0000:5d:00" / "0000:5d:00.0" (Xid), or from
 * NCCL's busId "5d000" (domain << 20 | bus << 12 | device << 4 | fn... as
 * printed with %lx: the bus is the two hex digits before the last three). */
static int
pci_of_xid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned d, b, v;

	if (sscanf(s, "%x:%x:%x", &d, &b, &v) == 3) {
		*bus = b;
		*dev = v;
		return 1;
	}
	if (sscanf(s, "%x:%x", &b, &v) == 2) {
		*bus = b;
		*dev = v;
		return 1;
	}
	return 0;
}

static int
pci_of_busid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned long v;
	char *end;

	v = strtoul(s, &end, 16);
	if (end == s || *end != '\0')
		return 0;
	*bus = (unsigned)((v >> 12) & 0xff);
	*dev = (unsigned)((v >> 4) & 0xff);
	return 1;
}

/* An unranked event naming a GPU (fact pci: a kernel Xid line) belongs to
 * the rank whose NCCL init line shows that bus (fact bus_id), on the same
 * host when the line's host is known (syslog prefix, or a host named in
 * the file's name). Ambiguous matches stay unranked. */
static void
attribute_by_gpu(struct incident *in)
{
	int pci = rulebook_find_fact(in->rb, "pci"), busid = rulebook_find_fact(in->rb, "bus_id");
	size_t i, j;

	if (pci < 0 || busid < 0)
		return;
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];
		const char *p = ev->rank < 0 ? event_fact(ev, pci) : NULL;
		unsigned bus, dev;
		int found = -1, many = 0;

		if (p == NULL || !pci_of_xid(p, &bus, &dev))
			continue;
		for (j = 0; j < in->nevents; j++) {
			const struct event *b = in->events[j];
			const char *v = event_fact(b, busid);
			const char *host = b->rank >= 0 ? host_of(in, b->rank) : NULL;
			unsigned bb, bd;

			if (v == NULL || b->rank < 0 || !pci_of_busid(v, &bb, &bd) || bb != bus)
				continue;
			if (host != NULL && ((ev->host != NULL && strcmp(ev->host, host) != 0) ||
			    (ev->host == NULL && strstr(ev->file, host) == NULL && in->multi_hosts)))
				continue;
			if (found >= 0 && found != b->rank)
				many = 1;
			found = b->rank;
		}
		if (found >= 0 && !many) {
			ev->rank = found;
			ev->rank_from = RANK_NAMED;
		}
	}
}

/* --- analysis --------------------------------------------------------- */

/* Group event indices by rank (counting sort), so that per-rank questions
 * cost that rank's events, not all of them. */
static void
index_by_rank(struct incident *in)
{
	size_t i, n = in->nranks + 2;

	free(in->byrank);
	free(in->rankstart);
	in->byrank = xmalloc(sizeof *in->byrank * (in->nevents + 1));
	in->rankstart = xcalloc(n + 1, sizeof *in->rankstart);
	for (i = 0; i < in->nevents; i++)
		in->rankstart[(size_t)(in->events[i]->rank + 1) + 1]++;
	for (i = 1; i <= n; i++)
		in->rankstart[i] += in->rankstart[i - 1];
	for (i = 0; i < in->nevents; i++) {
		size_t r = (size_t)(in->events[i]->rank + 1);

		in->byrank[in->rankstart[r]++] = i;
	}
	for (i = n; i > 0; i--)
		in->rankstart[i] = in->rankstart[i - 1];
	in->rankstart[0] = 0;
}

/* Event indices by signature, in arrival order within each: a condition
 * reads the events of its few signatures, not all of them. */
static void
index_by_sig(struct incident *in)
{
	size_t i, n = in->rb->nsigs;

	free(in->bysig);
	free(in->sigstart);
	in->bysig = xmalloc(sizeof *in->bysig * (in->nevents + 1));
	in->sigstart = xcalloc(n + 2, sizeof *in->sigstart);
	for (i = 0; i < in->nevents; i++)
		in->sigstart[in->events[i]->sig->index + 1]++;
	for (i = 1; i <= n; i++)
		in->sigstart[i] += in->sigstart[i - 1];
	for (i = 0; i < in->nevents; i++)
		in->bysig[in->sigstart[in->events[i]->sig->index]++] = i;
	for (i = n; i > 0; i--)
		in->sigstart[i] = in->sigstart[i - 1];
	in->sigstart[0] = 0;
}

/* The events of a rank: in->events[in->byrank[*lo .. *hi)]. */
static void
rank_events(const struct incident *in, int rank, size_t *lo, size_t *hi)
{
	size_t r = (size_t)(rank + 1);

	if (in->rankstart == NULL || rank + 1 < 0 || r + 1 > in->nranks + 1) {
		*lo = *hi = 0;
		return;
	}
	*lo = in->rankstart[r];
	*hi = in->rankstart[r + 1];
}

static const struct event *
first_of_rank(const struct incident *in, int rank, int (*want)(const struct event *))
{
	const struct event *best = NULL;
	size_t i, lo, hi;

	rank_events(in, rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank != rank || !want(ev))
			continue;
		if (best == NULL || time_quality(ev) > time_quality(best))
			best = ev;
		else if (time_quality(ev) == time_quality(best)) {
			/* Two signatures on one line: the weightier (more
			 * specific) one speaks for it. */
			if (ev->file == best->file && ev->lineno == best->lineno) {
				if (ev->sig->weight > best->sig->weight)
					best = ev;
			} else if (event_cmp_time(ev, best) < 0)
				best = ev;
		}
	}
	return best;
}

static int
want_initiating(const struct event *ev)
{
	return role_of(ev) == ROLE_INITIATING;
}

/* A rank's own first failure: its earliest initiating event, unless a
 * weightier (more specific) one follows within the tie window, as when a
 * traceback's generic wrapper line precedes the line that names the CUDA
 * or NCCL error. */
static const struct event *
first_failure_of_rank(const struct incident *in, int rank)
{
	const struct event *first = first_of_rank(in, rank, want_initiating), *best;
	size_t i, lo, hi;

	if (first == NULL || !(first->ts.flags & STAMP_TIME))
		return first;
	best = first;
	rank_events(in, rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank != rank || role_of(ev) != ROLE_INITIATING ||
		    time_quality(ev) != time_quality(first) || !(ev->ts.flags & STAMP_TIME))
			continue;
		if (stamp_cmp(&ev->ts, &first->ts) < 0 ||
		    ev->ts.sec - first->ts.sec > TIE_WINDOW)
			continue;
		if (ev->sig->weight > best->sig->weight ||
		    (ev->sig->weight == best->sig->weight && event_cmp_time(ev, best) < 0))
			best = ev;
	}
	return best;
}

static int
want_trouble(const struct event *ev)
{
	return role_of(ev) == ROLE_INITIATING || role_of(ev) == ROLE_COLLATERAL ||
	    role_of(ev) == ROLE_SYMPTOM;
}

static int
want_collateral(const struct event *ev)
{
	return role_of(ev) == ROLE_COLLATERAL;
}

static int64_t
span_ns(const struct stamp *a, const struct stamp *b)
{
	return (b->sec - a->sec) * 1000000000LL + (b->nsec - a->nsec);
}

/* The latest an event can have happened: its own time, or for a borrowed
 * time the next own time in its file. 0 when unbounded. */
static int
upper_bound(const struct event *ev, struct stamp *out)
{
	if (!(ev->ts.flags & STAMP_TIME))
		return 0;
	if (!(ev->ts.flags & STAMP_INHERITED)) {
		*out = ev->ts;
		return 1;
	}
	if (ev->upper.flags & STAMP_TIME) {
		*out = ev->upper;
		return 1;
	}
	return 0;
}

static void
choose_initiating(struct incident *in, struct analysis *an,
    const struct event ***co, size_t *nco)
{
	const struct event **cand = xcalloc(in->nranks + 1, sizeof *cand);
	size_t n = 0, i, j;
	const struct event *first = NULL;

	for (i = 0; i < in->nranks; i++) {
		const struct event *ev;

		if (in->ranks[i] == NULL)
			continue;
		if ((ev = first_failure_of_rank(in, (int)i)) != NULL)
			cand[n++] = ev;
	}
	*co = cand;
	*nco = 0;
	if (n == 0) {
		/* An initiating line nobody can attribute still means failure. */
		first = first_of_rank(in, -1, want_initiating);
		an->initiating = first;
		return;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && event_cmp_time(cand[j], cand[j - 1]) < 0; j--) {
			const struct event *t = cand[j];

			cand[j] = cand[j - 1];
			cand[j - 1] = t;
		}
	/* Candidates as early as the first, within what clocks can tell. */
	for (i = 1; i < n; i++) {
		if (!(cand[0]->ts.flags & STAMP_TIME) || !(cand[i]->ts.flags & STAMP_TIME))
			break;
		if (span_ns(&cand[0]->ts, &cand[i]->ts) > (int64_t)TIE_WINDOW * 1000000000LL)
			break;
	}
	*nco = i;
	first = cand[0];
	for (j = 1; j < i; j++) {
		const struct event *c = cand[j];

		/* A specific failure (higher weight) over a generic one; then
		 * the one torchrun named as root cause. */
		if (c->sig->weight > first->sig->weight ||
		    (c->sig->weight == first->sig->weight &&
		    (c->flags & LINE_ROOT_CAUSE) && !(first->flags & LINE_ROOT_CAUSE)))
			first = c;
	}
	/* Put the chosen one first among the tied. */
	for (j = 0; j < i; j++)
		if (cand[j] == first) {
			cand[j] = cand[0];
			cand[0] = first;
		}
	an->initiating = first;
}

static void
describe_event(struct buf *b, const struct event *ev)
{
	char when[40];

	buf_adds(b, ev->sig->entry->title);
	if (ev->ts.flags & STAMP_TIME) {
		stamp_format(&ev->ts, 0, when, sizeof when);
		buf_printf(b, " at %s", when);
	}
}

static void
clock_note(const struct incident *in, struct buf *b, int ra, int rb_)
{
	const char *ha = host_of(in, ra), *hb = host_of(in, rb_);

	if (ha != NULL && hb != NULL && strcmp(ha, hb) == 0)
		return;
	if (ha != NULL && hb != NULL)
		buf_printf(b, "; the order compares the clocks of %s and %s", ha, hb);
	else
		buf_adds(b, "; if these ranks ran on different hosts, the order rests on their clocks agreeing");
}

static int
diag_cmp(const void *a, const void *b)
{
	const struct diagnosis *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->entry->id, y->entry->id);
}

static void
build_diagnoses(struct incident *in, struct analysis *an)
{
	const struct rulebook *rb = in->rb;
	size_t i, j, k, nr = in->nranks + 1;
	const struct event **first = xcalloc(rb->nsigs + 1, sizeof *first);
	size_t *entry_of = xcalloc(rb->nsigs + 1, sizeof *entry_of);
	unsigned char *rr = xcalloc(rb->nentries * nr + 1, 1);	/* entry x rank: role bits */

	/* One pass over the events: each signature's first event, and which
	 * ranks each entry's events came from, by role. */
	for (i = 0; i < rb->nentries; i++)
		for (j = 0; j < rb->entries[i]->nsigs; j++)
			entry_of[rb->entries[i]->sigs[j].index] = i;
	for (k = 0; k < in->nevents; k++) {
		const struct event *ev = in->events[k];
		size_t si = ev->sig->index;

		if (first[si] == NULL || event_cmp_time(ev, first[si]) < 0)
			first[si] = ev;
		if (ev->rank >= 0 && (size_t)ev->rank < in->nranks)
			rr[entry_of[si] * nr + (size_t)ev->rank] |= (unsigned char)(1 << ev->sig->role);
	}
	an->diags = xcalloc(rb->nentries + 1, sizeof *an->diags);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];
		struct diagnosis d;
		int strong = 0, unmet_required = 0, any = 0, own_failure = 0;
		const unsigned char *er = rr + i * nr;

		memset(&d, 0, sizeof d);
		d.entry = e;
		d.evidence_events = xcalloc(e->nsigs + 1, sizeof *d.evidence_events);
		d.conds = xcalloc(e->nconds + 1, sizeof *d.conds);
		for (j = 0; j < e->nsigs; j++) {
			const struct signature *s = &e->sigs[j];

			if (first[s->index] == NULL)
				continue;
			d.evidence_events[d.nevidence++] = first[s->index];
			d.evidence += s->weight;
			if (s->role == ROLE_INITIATING || s->role == ROLE_SYMPTOM)
				strong = 1;
			if (s->role == ROLE_INITIATING)
				own_failure = 1;
			if (s->role != ROLE_CONTEXT && s->role != ROLE_PROGRESS)
				any = 1;
		}
		for (j = 0; j < e->nconds; j++) {
			struct condresult *r = &an->conds[e->conds[j].index];

			if (!r->met) {
				if (e->conds[j].required)
					unmet_required = 1;
				continue;
			}
			d.conds[d.nconds++] = r;
			d.evidence += e->conds[j].weight;
			any = 1;
			/* Pointing at ranks explains a hang; in a failure the
			 * initiating event does that, so only a required
			 * (defining) condition makes such an entry a cause. */
			if (e->conds[j].required ||
			    (r->nblamed > 0 && an->verdict != VERDICT_FAILURE))
				strong = 1;
		}
		if (an->initiating != NULL && an->initiating->sig->entry == e) {
			d.owns_initiating = 1;
			d.evidence += 4;
		}
		for (k = 0; k < in->nranks; k++)
			if (er[k]) {
				d.ranks++;
				if (er[k] & (1 << ROLE_INITIATING))
					d.ranks_initiating++;
				if (er[k] & (1 << ROLE_COLLATERAL))
					d.ranks_collateral++;
			}
		/* A required condition stands in for a failure line; when the
		 * entry's own failure line is there, it is not needed. */
		if (!any || (unmet_required && !own_failure && !d.owns_initiating)) {
			free(d.evidence_events);
			free(d.conds);
			continue;
		}
		/* Fallout alone describes what happened, not why. */
		if (!strong && !d.owns_initiating)
			d.evidence *= 0.5;
		d.score = 1 - exp(-d.evidence / 4);
		an->diags[an->ndiags++] = d;
	}
	free(rr);
	free(first);
	free(entry_of);
	qsort(an->diags, an->ndiags, sizeof *an->diags, diag_cmp);
}

static void
assign_role(struct rankstate *rs, enum rank_role role, char *why)
{
	rs->role = role;
	free(rs->why);
	rs->why = why;
}

const struct analysis *
incident_analyse(struct incident *in)
{
	struct analysis *an = &in->an;
	const struct rulebook *rb = in->rb;
	const struct event **co = NULL, *first_coll = NULL, *ev;
	size_t nco = 0, i, j, active;
	struct scoreboard sb;
	struct buf reason = BUF_INIT;
	double maxstep = -1;
	size_t steppers = 0;
	char when[40], span[40];

	if (in->analysed)
		return an;
	analysis_release(an);
	{
		const char *h0 = NULL;

		in->multi_hosts = 0;
		for (i = 0; i < in->nranks; i++)
			if (in->ranks[i] != NULL && in->ranks[i]->host != NULL) {
				if (h0 == NULL)
					h0 = in->ranks[i]->host;
				else if (strcmp(h0, in->ranks[i]->host) != 0)
					in->multi_hosts = 1;
			}
	}
	attribute_by_gpu(in);
	index_by_rank(in);
	index_by_sig(in);
	an->world = (int)in->nranks;
	active = incident_active_ranks(in);

	/* 1. Cross-rank conditions. */
	an->conds = xcalloc(rb->nconds + 1, sizeof *an->conds);
	an->nconds = rb->nconds;
	for (i = 0; i < rb->nconds; i++)
		eval_condition(in, rb->conds[i], &an->conds[i]);

	/* 2. The initiating event. */
	choose_initiating(in, an, &co, &nco);

	/* 3. Suspects: ranks pointed at by conditions, silence, progress. */
	sb.n = in->nranks;
	sb.score = xcalloc(sb.n + 1, sizeof *sb.score);
	sb.blamed = xcalloc(sb.n + 1, 1);
	sb.why = xcalloc(sb.n + 1, sizeof *sb.why);
	for (i = 0; i < an->nconds; i++) {
		struct condresult *r = &an->conds[i];
		char *w;

		if (!r->met || r->nblamed == 0)
			continue;
		w = r->detail ? xasprintf("%s (%s)", r->cond->text, r->detail) :
		    xstrdup(r->cond->text);
		for (j = 0; j < r->nblamed; j++) {
			suspect_add(&sb, r->blamed[j], r->cond->weight, w);
			if ((size_t)r->blamed[j] < sb.n)
				sb.blamed[r->blamed[j]] = 1;
		}
		free(w);
	}
	for (i = 0; i < in->nevents; i++) {
		ev = in->events[i];
		if (role_of(ev) == ROLE_COLLATERAL && (ev->ts.flags & STAMP_TIME) &&
		    (first_coll == NULL || event_cmp_time(ev, first_coll) < 0))
			first_coll = ev;
	}
	for (i = 0; i < in->nranks; i++) {
		struct rankstate *rs = in->ranks[i];

		if (rs != NULL && rs->step >= 0) {
			steppers++;
			if (rs->step > maxstep)
				maxstep = rs->step;
		}
	}
	for (i = 0; i < in->nranks; i++) {
		struct rankstate *rs = in->ranks[i];

		if (rs == NULL || rs->lines == 0) {
			if (i < in->nranks)
				suspect_add(&sb, (int)i, 1, "wrote nothing at all");
			continue;
		}
		if (!(rs->last.flags & STAMP_TIME))
			continue;
		stamp_format(&rs->last, 0, when, sizeof when);
		if (first_coll != NULL && first_of_rank(in, (int)i, want_trouble) == NULL &&
		    first_coll->ts.sec - rs->last.sec >= SILENT_BEFORE) {
			char *w;

			stamp_format_span(span_ns(&rs->last, &first_coll->ts), span, sizeof span);
			w = xasprintf("went silent at %s, %s before the first timeout report, "
			    "and reported nothing after", when, span);
			suspect_add(&sb, (int)i, 3, w);
			free(w);
		} else if ((in->last.flags & STAMP_TIME) && in->last.sec - rs->last.sec >=
		    SILENT_MIN && (double)(in->last.sec - rs->last.sec) >=
		    0.1 * (double)(in->last.sec - in->first.sec) &&
		    first_of_rank(in, (int)i, want_trouble) == NULL) {
			char *w;

			stamp_format_span(span_ns(&rs->last, &in->last), span, sizeof span);
			w = xasprintf("silent since %s while other ranks wrote for %s more",
			    when, span);
			suspect_add(&sb, (int)i, 1.5, w);
			free(w);
		}
		if (steppers >= 2 && rs->step >= 0 && rs->step < maxstep) {
			char *a = fmt_num(rs->step), *b = fmt_num(maxstep);
			char *w = xasprintf("last training step %s, others reached %s", a, b);

			suspect_add(&sb, (int)i, 1, w);
			free(w);
			free(a);
			free(b);
		}
	}
	/* In a failure the initiating rank is the first suspect. */
	if (an->initiating != NULL && an->initiating->rank >= 0)
		for (i = 0; i < nco; i++)
			if (co[i]->rank >= 0 && (size_t)co[i]->rank < sb.n) {
				struct buf w = BUF_INIT;

				buf_adds(&w, i == 0 ? "failed first: " : "failed at about the same time: ");
				describe_event(&w, co[i]);
				sb.score[co[i]->rank] += 100 - (double)i;
				if (sb.why[co[i]->rank].len) {
					buf_adds(&w, "; ");
					buf_add(&w, sb.why[co[i]->rank].s, sb.why[co[i]->rank].len);
				}
				buf_release(&sb.why[co[i]->rank]);
				sb.why[co[i]->rank] = w;
			}
	an->suspects = xcalloc(sb.n + 1, sizeof *an->suspects);
	for (i = 0; i < sb.n; i++)
		if (sb.score[i] >= 1.5 || (sb.score[i] > 0 && (in->ranks[i] == NULL ||
		    in->ranks[i]->lines == 0))) {
			an->suspects[an->nsuspects].rank = (int)i;
			an->suspects[an->nsuspects].score = sb.score[i];
			an->suspects[an->nsuspects].reason = buf_detach(&sb.why[i]);
			an->nsuspects++;
		}
	for (i = 0; i < sb.n; i++)
		buf_release(&sb.why[i]);
	sort_in = in;
	qsort(an->suspects, an->nsuspects, sizeof *an->suspects, suspect_cmp);

	/* 4. Verdict. */
	if (an->initiating != NULL)
		an->verdict = VERDICT_FAILURE;
	else if (first_coll != NULL || (an->nsuspects > 0 && an->suspects[0].score >= 3))
		an->verdict = VERDICT_HANG;
	else
		an->verdict = VERDICT_HEALTHY;

	/* 5. Roles. */
	for (i = 0; i < in->nranks; i++) {
		struct rankstate *rs = in->ranks[i];
		const struct event *fe;

		if (rs == NULL)
			rs = rank_slot(in, (int)i);
		rs->first_event = fe = first_of_rank(in, (int)i, want_trouble);
		if (rs->lines == 0) {
			assign_role(rs, RR_SILENT, xstrdup("no output at all"));
			continue;
		}
		assign_role(rs, RR_HEALTHY, NULL);
		for (j = 0; j < nco; j++)
			if (co[j]->rank == (int)i)
				break;
		if (j < nco) {
			assign_role(rs, RR_INITIATING, xstrdup(co[j]->sig->entry->title));
			continue;
		}
		if (sb.score[i] >= 2 && an->verdict == VERDICT_HANG) {
			assign_role(rs, RR_SUSPECT, NULL);
			continue;
		}
		if (first_of_rank(in, (int)i, want_collateral) != NULL ||
		    first_of_rank(in, (int)i, want_initiating) != NULL) {
			assign_role(rs, RR_COLLATERAL, fe ? xstrdup(fe->sig->entry->title) : NULL);
			continue;
		}
		if (sb.blamed[i])
			assign_role(rs, RR_SUSPECT, NULL);
		else if (sb.score[i] >= 1.5)
			assign_role(rs, an->verdict == VERDICT_HEALTHY ? RR_SILENT : RR_SUSPECT, NULL);
	}
	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL)
			an->role_count[in->ranks[i]->role]++;
	free(sb.score);
	free(sb.blamed);
	free(sb.why);

	/* 6. Diagnoses. */
	build_diagnoses(in, an);

	/* 7. Confidence and the one-sentence reason. */
	if (an->verdict == VERDICT_FAILURE && an->initiating != NULL) {
		const struct event *init = an->initiating, *next = NULL;

		an->confidence = "high";
		if (init->rank >= 0)
			buf_printf(&reason, "rank %d failed first", init->rank);
		else
			buf_adds(&reason, "a line with no rank shows the first failure");
		if (init->ts.flags & STAMP_TIME) {
			stamp_format(&init->ts, 0, when, sizeof when);
			buf_printf(&reason, " at %s", when);
		}
		buf_printf(&reason, " (%s)", init->sig->entry->title);
		/* The first trouble on any other rank. */
		for (i = 0; i < in->nranks; i++) {
			const struct event *fe;

			if ((int)i == init->rank || in->ranks[i] == NULL)
				continue;
			fe = in->ranks[i]->first_event;
			if (fe != NULL && (fe->ts.flags & STAMP_TIME) &&
			    (next == NULL || event_cmp_time(fe, next) < 0))
				next = fe;
		}
		if (init->rank < 0) {
			an->confidence = "low";
			buf_printf(&reason, " (%s:%lu carries no rank)", init->file, init->lineno);
		} else if (!(init->ts.flags & STAMP_TIME)) {
			an->confidence = "low";
			buf_adds(&reason, "; its line has no time, so the order is unknown");
		} else if (nco > 1) {
			an->confidence = "medium";
			buf_printf(&reason, "; %zu ranks failed within %d s of each other (%s",
			    nco, TIE_WINDOW, "ranks ");
			for (i = 0; i < nco && i < 6; i++)
				buf_printf(&reason, "%s%d", i ? ", " : "", co[i]->rank);
			buf_adds(&reason, nco > 6 ? ", ...)" : ")");
			clock_note(in, &reason, co[0]->rank, co[1]->rank);
		} else if (next != NULL) {
			struct stamp ilo = init->ts, ihi, nhi;
			int ihi_ok = upper_bound(init, &ihi), nhi_ok = upper_bound(next, &nhi);

			if (nhi_ok && stamp_cmp(&nhi, &ilo) < 0) {
				/* the other rank's trouble certainly came first */
				stamp_format_span(span_ns(&nhi, &ilo), span, sizeof span);
				an->confidence = "low";
				buf_printf(&reason, ", but rank %d reported %s %s earlier; "
				    "the cause may have left no error line", next->rank,
				    next->sig->entry->title, span);
			} else if (ihi_ok && stamp_cmp(&ihi, &next->ts) < 0) {
				int64_t gap = span_ns(&ihi, &next->ts);

				stamp_format_span(span_ns(&ilo, &next->ts), span, sizeof span);
				buf_printf(&reason, ", %s before any other rank reported a problem",
				    span);
				if (gap < (int64_t)SKEW_MATTERS * 1000000000LL) {
					an->confidence = "medium";
					clock_note(in, &reason, init->rank, next->rank);
				}
			} else {
				/* times overlap: lines without their own time */
				an->confidence = "medium";
				buf_printf(&reason, "; rank %d reported %s at about the same time "
				    "and the logs cannot order the two", next->rank,
				    next->sig->entry->title);
			}
		} else
			buf_adds(&reason, "; no other rank reported a problem");
		if (init->ts.flags & STAMP_REPORTED) {
			if (strcmp(an->confidence, "high") == 0)
				an->confidence = "medium";
			buf_adds(&reason, " (time as torchrun's summary reports it)");
		} else if (init->ts.flags & STAMP_INHERITED) {
			/* Its line has no time: it was written after the line
			 * before it and before the next line with a time. The
			 * order holds only if that upper bound beats the next. */
			if (init->upper.flags & STAMP_TIME) {
				char up[40];

				stamp_format(&init->upper, 0, up, sizeof up);
				buf_printf(&reason, " (its line has no time of its own: written "
				    "by %s)", up);
			} else
				buf_adds(&reason, " (its line has no time of its own; this is "
				    "the time of the line before it)");
		}
		if (an->role_count[RR_COLLATERAL] > 0)
			buf_printf(&reason, "; %zu other rank%s only reported the fallout",
			    an->role_count[RR_COLLATERAL],
			    an->role_count[RR_COLLATERAL] == 1 ? "" : "s");
	} else if (an->verdict == VERDICT_HANG) {
		buf_adds(&reason, "no rank reported an error of its own");
		if (first_coll != NULL) {
			size_t nr = 0;

			for (i = 0; i < in->nranks; i++)
				if (in->ranks[i] != NULL && first_of_rank(in, (int)i, want_collateral))
					nr++;
			stamp_format(&first_coll->ts, 0, when, sizeof when);
			buf_printf(&reason, "; %zu rank%s reported %s from %s", nr,
			    nr == 1 ? "" : "s", first_coll->sig->entry->title, when);
		}
		if (an->nsuspects > 0) {
			const struct suspect *s = &an->suspects[0];

			buf_printf(&reason, "; rank %d is the likeliest culprit: %s", s->rank,
			    s->reason);
			if (an->nsuspects > 1 && an->suspects[1].score >= s->score)
				an->confidence = "low";
			else
				an->confidence = s->score >= 4 ? "medium" : "low";
		} else {
			an->confidence = "low";
			buf_adds(&reason, "; nothing in the logs points at one rank");
		}
	} else {
		an->confidence = first_coll == NULL && an->ndiags == 0 ? "high" : "medium";
		buf_printf(&reason, "no failure or stall found in %lu lines from %zu rank%s",
		    in->lines, active, active == 1 ? "" : "s");
		if (an->ndiags > 0)
			buf_printf(&reason, "; %s is worth a look", an->diags[0].entry->title);
	}
	an->reason = buf_detach(&reason);
	free(co);
	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL && in->ranks[i]->host != NULL) {
			for (j = i + 1; j < in->nranks; j++)
				if (in->ranks[j] != NULL && in->ranks[j]->host != NULL &&
				    strcmp(in->ranks[i]->host, in->ranks[j]->host) != 0)
					an->multi_host = 1;
			break;
		}
	in->analysed = 1;
	return an;
}

int
incident_signal(struct incident *in, const struct entry *e, const char *signal,
    const struct event **first, const char **detail)
{
	const struct signature *sig = rulebook_signature(in->rb, e, signal);
	const struct condition *c = sig ? NULL : rulebook_condition(e, signal);
	const struct analysis *an = incident_analyse(in);
	size_t i;

	*first = NULL;
	*detail = NULL;
	if (sig != NULL) {
		for (i = 0; i < in->nevents; i++)
			if (in->events[i]->sig == sig && (*first == NULL ||
			    event_cmp_time(in->events[i], *first) < 0))
				*first = in->events[i];
		return *first != NULL;
	}
	if (c != NULL && c->index < an->nconds && an->conds[c->index].met) {
		*detail = an->conds[c->index].detail;
		return 1;
	}
	return 0;
}
