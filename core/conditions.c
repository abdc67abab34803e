/* conditions.c: the cross-rank conditions of the rule files (differs,
 * behind, outlier, missing, count) evaluated over the kept events; a met
 * condition may blame ranks. See doc/rules.md for what each test means. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "strset.h"
#include "xmalloc.h"

/* --- conditions ------------------------------------------------------- */

/* (24 bytes: a condition over 131,072 ranks sorts as many, twice over) */
struct tuple {
	const char	*group;
	union {
		const char	*value;	/* differs */
		double		 num;	/* behind, outlier */
	}		 v;
	int32_t		 rank;
	uint32_t	 order;		/* an event's or row's arrival order */
};

static int cond_index_cmp(const void *, const void *);

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

/* The order tuple_cmp gives (group, rank, arrival), without comparing
 * strings for every pair: the few distinct groups are ranked once, then
 * two stable counting sorts (by rank, then by group) and an insertion
 * sort of each rank's few tuples by arrival. A condition over 16,384
 * ranks reads some 50,000 tuples. */
#define SORT_GROUPS	16

static void
tuples_sort(const struct incident *in, struct tuple *t, size_t n)
{
	const char *g[SORT_GROUPS], *sorted[SORT_GROUPS];
	size_t ng = 0, i, j, nb;
	uint32_t *cnt = NULL;	/* (tuple places: n < 2^32, as the events) */
	uint32_t *k = NULL, *p1, *p2;
	unsigned char *gi = NULL, grank[SORT_GROUPS];

	if (n < 64)
		goto slow;
	k = xmalloc(n * sizeof *k);
	gi = xmalloc(n);
	for (i = 0; i < n; i++) {
		const struct rankstate *rs = t[i].rank >= 0 ? incident_rank(in, t[i].rank) : NULL;

		if (rs == NULL)
			goto slow;
		k[i] = rs->k;
		for (j = 0; j < ng && g[j] != t[i].group && strcmp(g[j], t[i].group) != 0; j++)
			;
		if (j == ng) {
			if (ng == SORT_GROUPS)
				goto slow;
			g[ng++] = t[i].group;
		}
		gi[i] = (unsigned char)j;
	}
	memcpy(sorted, g, ng * sizeof *g);
	qsort(sorted, ng, sizeof *sorted, buf_strp_cmp);
	for (j = 0; j < ng; j++)
		for (i = 0; i < ng; i++)
			if (sorted[i] == g[j])
				grank[j] = (unsigned char)i;
	/* by rank (rank_v is in rank order: k is the rank's place), then by
	 * group, both stable: as a permutation of the tuples' places (p1,
	 * then p2 in k's room), not as copies of them */
	nb = in->rank_n + 1;
	cnt = xcalloc((nb > SORT_GROUPS ? nb : SORT_GROUPS) + 1, sizeof *cnt);
	p1 = xmalloc(n * sizeof *p1);
	for (i = 0; i < n; i++)
		cnt[k[i] + 1]++;
	for (i = 1; i <= nb; i++)
		cnt[i] += cnt[i - 1];
	for (i = 0; i < n; i++)
		p1[cnt[k[i]]++] = (uint32_t)i;
	memset(cnt, 0, (SORT_GROUPS + 1) * sizeof *cnt);
	for (i = 0; i < n; i++)
		cnt[grank[gi[i]] + 1]++;
	for (i = 1; i <= SORT_GROUPS; i++)
		cnt[i] += cnt[i - 1];
	p2 = k;
	for (j = 0; j < n; j++)
		p2[cnt[grank[gi[p1[j]]]]++] = p1[j];
	/* each group's places end where cnt now says: gi[] is made each
	 * place's group; the tuple of place j is the one of place p2[j],
	 * moved a cycle at a time */
	for (i = j = 0; i < SORT_GROUPS; i++)
		for (; j < cnt[i]; j++)
			gi[j] = (unsigned char)i;
	for (i = 0; i < n; i++) {
		struct tuple x;
		size_t cur = i, from;

		if (p2[i] == UINT32_MAX || p2[i] == i)
			continue;
		x = t[i];
		for (;;) {
			from = p2[cur];
			p2[cur] = UINT32_MAX;
			if (from == i) {
				t[cur] = x;
				break;
			}
			t[cur] = t[from];
			cur = from;
		}
	}
	/* a rank's tuples of one group by arrival: a few, nearly in order */
	for (i = 1; i < n; i++) {
		struct tuple x = t[i];

		for (j = i; j > 0 && gi[j - 1] == gi[i] && t[j - 1].rank == x.rank &&
		    t[j - 1].order > x.order; j--)
			t[j] = t[j - 1];
		t[j] = x;
	}
	free(cnt);
	free(p1);
	free(k);
	free(gi);
	return;
slow:
	free(k);
	free(gi);
	qsort(t, n, sizeof *t, tuple_cmp);
}

/* The last value each where pattern was tried on, and the answer: the
 * events of thousands of ranks mostly carry the same few values. */
struct seen {
	char	 value[FACT_VALUE_MAX + 1];
	int	 valid, match;
};

/* Does condition c read this event? md: scratch match data (one pair is
 * enough: a where pattern only has to match); seen: one per where. */
static int
cond_reads(const struct condition *c, const unsigned char *from,
    const struct event *ev, pcre2_match_data *md, struct seen *seen)
{
	size_t i;

	if (!from[ev->sig->index])
		return 0;
	for (i = 0; i < c->nwhere; i++) {
		const char *v = event_fact(ev, c->where[i].fact_id);
		size_t n;

		if (v == NULL || c->where[i].re == NULL)
			return 0;
		if (!seen[i].valid || strcmp(seen[i].value, v) != 0) {
			n = strlen(v);
			seen[i].match = pcre2_match(c->where[i].re, (PCRE2_SPTR)v, n, 0, 0, md,
			    NULL) >= 0;
			memcpy(seen[i].value, v, n + 1);	/* at most FACT_VALUE_MAX */
			seen[i].valid = 1;
		}
		if (!seen[i].match)
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

/* The values of a differs group, a rank's each, in the order its ranks
 * (in rank order) show them: how many ranks have each and the first; the
 * first 16 values, others not counted. */
struct tally {
	const char	*vals[16];
	size_t		 cnt[16];
	int		 first[16];
	size_t		 distinct, ranks, maxc;
};

static void
tally_add(struct tally *ty, const char *v, int rank)
{
	size_t m;

	ty->ranks++;
	for (m = 0; m < ty->distinct; m++)
		if (strcmp(ty->vals[m], v) == 0)
			break;
	if (m == ty->distinct && ty->distinct < 16) {
		ty->vals[ty->distinct] = v;
		ty->first[ty->distinct] = rank;
		ty->cnt[ty->distinct++] = 0;
	}
	if (m < 16)
		ty->cnt[m]++;
	if (m < 16 && ty->cnt[m] > ty->maxc)
		ty->maxc = ty->cnt[m];
}

/* Is v one of the group's values that fewer ranks have than another? */
static int
tally_minority(const struct tally *ty, const char *v)
{
	size_t m;

	for (m = 0; m < ty->distinct; m++)
		if (ty->cnt[m] < ty->maxc && strcmp(v, ty->vals[m]) == 0)
			return 1;
	return 0;
}

/* Do values span further than c's max_gap (no one sequence: two groups'
 * SeqNums)? */
static int
too_far(const struct condition *c, double lo, double hi)
{
	return c->max_gap > 0 && hi - lo > c->max_gap;
}

/* ... a group's values, when numbers? Of its first 16 values. */
static int
tally_too_far(const struct condition *c, const struct tally *ty)
{
	double lo = 0, hi = 0, x;
	char *end;
	size_t m;

	if (c->max_gap <= 0)
		return 0;
	for (m = 0; m < ty->distinct; m++) {
		x = strtod(ty->vals[m], &end);
		if (end == ty->vals[m] || *end != '\0')
			return 0;	/* not a number */
		if (m == 0 || x < lo)
			lo = x;
		if (m == 0 || x > hi)
			hi = x;
	}
	return too_far(c, lo, hi);
}

/* What differs says of a group: its first four values, each with the
 * one rank that has it (first: the lowest) or how many. */
static char *
differs_detail(const struct condition *c, const char *group, const struct tally *ty)
{
	struct buf b = BUF_INIT;
	size_t m;

	buf_printf(&b, "%s ", c->fact);
	for (m = 0; m < ty->distinct && m < 4; m++) {
		if (m)
			buf_adds(&b, ", ");
		if (ty->cnt[m] == 1)
			buf_printf(&b, "%s on rank %d", ty->vals[m], ty->first[m]);
		else
			buf_printf(&b, "%s on %zu ranks", ty->vals[m], ty->cnt[m]);
	}
	if (c->group_by != NULL && *group)
		buf_printf(&b, " (same %s %s)", c->group_by, group);
	return buf_detach(&b);
}

/* differs: per group, one value per rank (its latest). */
static void
eval_differs(const struct incident *in, const struct condition *c,
    struct tuple *t, size_t n, struct condresult *r)
{
	size_t i, j, k, best_ranks = 0;

	tuples_sort(in, t, n);
	/* keep each rank's latest value per group */
	for (i = j = 0; i < n; i++) {
		if (j > 0 && strcmp(t[j - 1].group, t[i].group) == 0 && t[j - 1].rank == t[i].rank)
			t[j - 1] = t[i];
		else
			t[j++] = t[i];
	}
	n = j;
	for (i = 0; i < n; i = j) {
		struct tally ty;

		memset(&ty, 0, sizeof ty);
		for (j = i; j < n && strcmp(t[j].group, t[i].group) == 0; j++)
			tally_add(&ty, t[j].v.value, t[j].rank);
		if (ty.distinct < 2 || tally_too_far(c, &ty))
			continue;
		r->met = 1;
		for (k = i; c->blame == BLAME_MINORITY && k < j; k++)
			if (tally_minority(&ty, t[k].v.value))
				blame_add(r, t[k].rank);
		if (ty.ranks > best_ranks) {
			best_ranks = ty.ranks;
			free(r->detail);
			r->detail = differs_detail(c, t[i].group, &ty);
		}
	}
	(void)in;
}

/* A double as a key that orders as the numbers do (no NaN here: a fact
 * that reads as one is no number; a zero is +0, a sum from 0). */
static uint64_t
order_key(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/* The values an outlier test reads, a rank's each, in rank order: from
 * arrays (v, rk: n of them), or (in) each rank's mean of the condition's
 * fact from its numstats, made again on each reading rather than kept. */
struct rankvals {
	const double		*v;
	const int		*rk;
	size_t			 n;	/* places: values, or in's ranks */
	const struct incident	*in;
	const struct condition	*c;
};

/* The value of place i and its rank; 0: the rank has none. */
static int
rankval(const struct rankvals *rv, size_t i, double *x, int *rank)
{
	const struct rankstate *rs;
	const struct numstat *nums;
	double sum = 0;
	uint32_t cnt = 0;
	size_t j, k;

	if (rv->in == NULL) {
		*x = rv->v[i];
		*rank = rv->rk[i];
		return 1;
	}
	rs = rv->in->rank_v[i];
	nums = rankstate_nums(rs);
	for (j = 0; j < rs->nnums; j++)
		for (k = 0; k < rv->c->nfromsig; k++)
			if (nums[j].sig == rv->c->fromsig[k]->index &&
			    rv->c->fromsig[k]->statfacts[nums[j].stat] == rv->c->fact_id) {
				sum += nums[j].sum;
				cnt += nums[j].count;
			}
	if (cnt == 0)
		return 0;
	*x = sum / cnt;
	*rank = rs->rank;
	return 1;
}

/* The k-th smallest of the values (k < how many there are), what they
 * sorted have at k: a byte of their keys at a time, most significant
 * first, counting those that share the bytes chosen so far; no copy of
 * 131,072 ranks' values to sort. */
static double
kth_smallest(const struct rankvals *rv, size_t k)
{
	uint64_t prefix = 0, mask = 0;
	size_t i, b;
	double x = 0;
	int shift, rank;

	for (shift = 56; shift >= 0; shift -= 8) {
		size_t hist[256] = { 0 };

		for (i = 0; i < rv->n; i++) {
			uint64_t key;

			if (!rankval(rv, i, &x, &rank))
				continue;
			if (((key = order_key(x)) & mask) == prefix)
				hist[key >> shift & 255]++;
		}
		for (b = 0; b < 255 && k >= hist[b]; b++)
			k -= hist[b];
		prefix |= (uint64_t)b << shift;
		mask |= (uint64_t)255 << shift;
	}
	for (i = 0; i < rv->n; i++)
		if (rankval(rv, i, &x, &rank) && order_key(x) == prefix)
			break;
	return x;
}

/* outlier: some rank's value is factor times above (or, blaming the
 * lowest, below) the median of all ranks' values (nr of them). */
static void
outlier(const struct condition *c, const struct rankvals *rv, size_t nr,
    struct condresult *r)
{
	double med, x;
	size_t k;
	int low = c->blame == BLAME_LOWEST, rank;

	if (nr < 3)
		return;
	med = kth_smallest(rv, nr / 2);
	if (med <= 0)
		return;
	for (k = 0; k < rv->n; k++) {
		if (!rankval(rv, k, &x, &rank) ||
		    (low ? x * c->factor > med : x < c->factor * med))
			continue;
		r->met = 1;
		if (c->blame == BLAME_HIGHEST || low)
			blame_add(r, rank);
		if (r->detail == NULL) {
			char *a = incident_fmt_num(x), *b = incident_fmt_num(med);

			r->detail = xasprintf("%s %s on rank %d, median %s", c->fact, a,
			    rank, b);
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
	struct rankvals rv = { NULL, NULL, in->rank_n, in, c };
	size_t i, nr = 0;
	double x;
	int rank;

	for (i = 0; i < in->rank_n; i++)
		nr += (size_t)rankval(&rv, i, &x, &rank);
	outlier(c, &rv, nr, r);
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

	tuples_sort(in, t, n);
	for (i = 0; i < n; i = j) {
		/* per rank in this group */
		nr = 0;
		for (j = i; j < n && strcmp(t[j].group, t[i].group) == 0; ) {
			double agg = t[j].v.num, sum = 0;
			size_t cnt = 0;
			int rank = t[j].rank;

			for (k = j; k < n && strcmp(t[k].group, t[i].group) == 0 &&
			    t[k].rank == rank; k++) {
				if (t[k].v.num > agg)
					agg = t[k].v.num;
				sum += t[k].v.num;
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
			if (hi - lo < c->min_gap || too_far(c, lo, hi))
				continue;
			r->met = 1;
			{
				size_t nlo = 0;
				char *a = incident_fmt_num(lo), *b = incident_fmt_num(hi);

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
		} else {
			struct rankvals rv = { vals, rk, nr, NULL, c };

			outlier(c, &rv, nr, r);
		}
	}
	free(vals);
	free(rk);
}

/* The events or rows of c's signatures, from an index by signature
 * (incident_analyse's): into out, or only counted when out is NULL. On
 * return from[] marks c's signatures. */
static size_t
collect(const struct incident *in, const struct condition *c, unsigned char *from,
    const size_t *start, const uint32_t *by, uint32_t *out)
{
	size_t i, k, n = 0;

	memset(from, 0, in->rb->nsigs + 1);
	for (i = 0; i < c->nfromsig; i++) {
		size_t si = c->fromsig[i]->index;

		if (from[si])
			continue;
		from[si] = 1;
		for (k = start[si]; k < start[si + 1]; k++, n++)
			if (out != NULL)
				out[n] = by[k];
	}
	return n;
}

/* Does c's test read the values (differs, behind, an outlier by where or
 * group), or only which ranks have its events (missing, count) or their
 * statistics (any other outlier: outlier_from_stats)? */
static int
by_tuples(const struct condition *c)
{
	if (c->test == TEST_MISSING || c->test == TEST_COUNT)
		return 0;
	return c->test != TEST_OUTLIER || c->nwhere > 0 || c->group_id >= 0;
}

/* What a condition reads: its signatures' events (idx, incident.events'
 * indices) then their rows (rows, incident.rows'): place x. */
struct reading {
	const struct incident	*in;
	const struct condition	*c;
	const uint32_t		*idx, *rows;
	size_t			 nidx, n;
	const unsigned char	*from;
	int			 pg;
	pcre2_match_data	*md;
	struct seen		*seen;
	struct strset		*keys;	/* two-fact groups' names, kept once */
	int			 one_group;	/* no event carries group_by's one fact */
};

/* Does the condition read place x: its rank, value (the fact's, NULL
 * when it has none to read), group ("" when none) and arrival order. */
static int
read_at(const struct reading *rd, size_t x, int *rank, const char **v, const char **g,
    uint32_t *order)
{
	const struct incident *in = rd->in;
	const struct condition *c = rd->c;
	const struct factrow *row = x < rd->nidx ? NULL : &in->rows.v[rd->rows[x - rd->nidx]];
	const struct event *ev = row == NULL ? in->events[rd->idx[x]] : row->ex;

	*rank = row == NULL ? ev->rank : row->rank;
	*v = NULL;
	*g = "";
	*order = row == NULL ? ev->order : row->order;
	if (row == NULL && in->summarised[ev->sig->index] == 2 && ev->line_rank >= 0)
		return 0;
	if (*rank < 0 || !cond_reads(c, rd->from, ev, rd->md, rd->seen))
		return 0;
	if (c->fact_id >= 0 && (*v = event_fact(ev, c->fact_id)) == NULL)
		return 0;
	if (c->group_id >= 0 && (*g = event_fact(ev, c->group_id)) == NULL) {
		if (!rd->one_group)
			return 0;
		*g = "";
	}
	if (c->group2_id >= 0) {
		/* "812, op BROADCAST": the name the detail shows */
		const char *g2 = event_fact(ev, c->group2_id);
		const char *part[5] = { *g, ", ", c->group_by2, " ", g2 };
		char key[3 * FACT_VALUE_MAX + 8];
		size_t kl = 0, i, l;

		if (g2 == NULL)
			return 0;
		for (i = 0; i < 5; i++) {
			l = strlen(part[i]);
			if (l > FACT_VALUE_MAX)
				l = FACT_VALUE_MAX;
			memcpy(key + kl, part[i], l);
			kl += l;
		}
		*g = strset_add(rd->keys, key, kl);
	}
	if (c->group_id < 0 && c->test == TEST_BEHIND && rd->pg >= 0 &&
	    event_fact(ev, rd->pg) != NULL)
		*g = event_fact(ev, rd->pg);
	return 1;
}

#define BYRANK_GROUPS	16

/* By rank, place x: 1 when the condition reads it, with its rank's state
 * in *rs (marked in has[], counted in *nr), its value and order, and its
 * group's slot *gi among gname[0..*ng) (*isnew: added now); 0 when the
 * condition does not read it; -1 when by rank will not do: a rank with
 * no state, or a group more than BYRANK_GROUPS or one whose per_rank
 * bytes a rank would be more than per_event bytes an event. */
static int
byrank_read(const struct reading *rd, size_t x, unsigned char *has, size_t *nr,
    const char **gname, size_t *ng, size_t per_rank, size_t per_event,
    const struct rankstate **rs, const char **v, uint32_t *order, size_t *gi,
    int *isnew)
{
	const char *g;
	int rank;

	if (!read_at(rd, x, &rank, v, &g, order))
		return 0;
	if ((*rs = incident_rank(rd->in, rank)) == NULL)
		return -1;
	if (!has[(*rs)->k]) {
		has[(*rs)->k] = 1;
		(*nr)++;
	}
	for (*gi = 0; *gi < *ng && gname[*gi] != g && strcmp(gname[*gi], g) != 0; (*gi)++)
		;
	*isnew = *gi == *ng;
	if (*isnew) {
		if (*ng == BYRANK_GROUPS || (*ng + 1) * rd->in->rank_n * per_rank >
		    rd->n * per_event)
			return -1;
		gname[(*ng)++] = g;
	}
	return 1;
}

/* The groups in the order of their names, as tuples sort. */
static void
groups_by_name(const char *const *gname, size_t ng, size_t *order_g)
{
	size_t gi, i;

	for (gi = 0; gi < ng; gi++) {
		for (i = gi; i > 0 && strcmp(gname[order_g[i - 1]], gname[gi]) > 0; i--)
			order_g[i] = order_g[i - 1];
		order_g[i] = gi;
	}
}

/* differs by rank, without a tuple for each event: each group's latest
 * place of each rank (by the rank's k) in an array, then each group's
 * ranks in rank order, as eval_differs reads its sorted tuples; the
 * same answer in a few bytes a rank. 0 (nothing done) when that would
 * not be smaller than the tuples, or a rank has no state. */
static int
differs_by_rank(const struct reading *rd, unsigned char *has, size_t *nr,
    struct condresult *r)
{
	const struct incident *in = rd->in;
	const struct condition *c = rd->c;
	const char *gname[BYRANK_GROUPS] = { NULL }, *v, *g;
	uint32_t *lat[BYRANK_GROUPS], order;
	size_t ng = 0, gi, x, k, i, best_ranks = 0, order_g[BYRANK_GROUPS];
	int rank, ok = 1;

	for (x = 0; x < rd->n && ok; x++) {
		const struct rankstate *rs;
		uint32_t *at;
		int isnew;

		/* a group is a rank's worth of places: no more than the
		 * tuples would be */
		if ((k = (size_t)(byrank_read(rd, x, has, nr, gname, &ng, sizeof **lat,
		    sizeof(struct tuple), &rs, &v, &order, &gi, &isnew) + 1)) != 2) {
			ok = k != 0;
			continue;
		}
		if (isnew)
			lat[gi] = xcalloc(in->rank_n + 1, sizeof **lat);
		at = &lat[gi][rs->k];
		if (*at != 0) {
			const char *v0, *g0;
			uint32_t o0;
			int r0;

			(void)read_at(rd, *at - 1, &r0, &v0, &g0, &o0);
			if (o0 > order)
				continue;	/* its latest is later */
		}
		*at = (uint32_t)x + 1;
	}
	if (ok)
		groups_by_name(gname, ng, order_g);
	for (i = 0; ok && i < ng; i++) {
		const uint32_t *l = lat[order_g[i]];
		struct tally ty;

		memset(&ty, 0, sizeof ty);
		for (k = 0; k < in->rank_n; k++)
			if (l[k] != 0) {
				(void)read_at(rd, l[k] - 1, &rank, &v, &g, &order);
				tally_add(&ty, v != NULL ? v : "", rank);	/* (as a tuple's) */
			}
		if (ty.distinct < 2 || tally_too_far(c, &ty))
			continue;
		r->met = 1;
		for (k = 0; c->blame == BLAME_MINORITY && k < in->rank_n; k++)
			if (l[k] != 0) {
				(void)read_at(rd, l[k] - 1, &rank, &v, &g, &order);
				if (tally_minority(&ty, v != NULL ? v : ""))
					blame_add(r, rank);
			}
		if (ty.ranks > best_ranks) {
			best_ranks = ty.ranks;
			free(r->detail);
			r->detail = differs_detail(c, gname[order_g[i]], &ty);
		}
	}
	for (gi = 0; gi < ng; gi++)
		free(lat[gi]);
	return ok;
}

/* behind by rank, without a tuple for each event: each group's highest
 * value of each rank (by the rank's k), as eval_numeric takes it from the
 * sorted tuples; then the lowest and highest rank of the group. 8 bytes a
 * rank and group, where the tuples and eval_numeric's arrays are 36 an
 * event. 0 (nothing done) when that would not be smaller, or a rank has
 * no state. */
static int
behind_by_rank(const struct reading *rd, unsigned char *has, size_t *nr,
    struct condresult *r)
{
	const struct incident *in = rd->in;
	const struct condition *c = rd->c;
	const char *gname[BYRANK_GROUPS] = { NULL }, *v;
	double *best[BYRANK_GROUPS], num;
	uint32_t order;
	size_t ng = 0, gi, x, k, i, order_g[BYRANK_GROUPS];
	int ok = 1;

	for (x = 0; x < rd->n && ok; x++) {
		const struct rankstate *rs;
		int isnew;

		if ((k = (size_t)(byrank_read(rd, x, has, nr, gname, &ng, sizeof **best,
		    sizeof(struct tuple) + sizeof(double) + sizeof(int), &rs, &v, &order,
		    &gi, &isnew) + 1)) != 2) {
			ok = k != 0;
			continue;
		}
		if (isnew) {
			best[gi] = xmalloc(sizeof **best * (in->rank_n + 1));
			for (k = 0; k <= in->rank_n; k++)
				best[gi][k] = -INFINITY;
		}
		if (v == NULL || !incident_fact_number(v, &num))
			num = v ? strtod(v, NULL) : 0;
		if (num > best[gi][rs->k] || best[gi][rs->k] == -INFINITY)
			best[gi][rs->k] = num;
	}
	if (ok)
		groups_by_name(gname, ng, order_g);
	for (i = 0; ok && i < ng; i++) {
		const double *b = best[order_g[i]];
		double lo = 0, hi = 0;
		size_t nrk = 0, nlo = 0;
		int lorank = -1;
		char *a, *z;

		for (k = 0; k < in->rank_n; k++)
			if (b[k] != -INFINITY) {
				if (nrk == 0 || b[k] < lo)
					lo = b[k];
				if (nrk == 0 || b[k] > hi)
					hi = b[k];
				nrk++;
			}
		if (nrk < 2 || hi - lo < c->min_gap || too_far(c, lo, hi))
			continue;
		r->met = 1;
		for (k = 0; k < in->rank_n; k++)
			if (b[k] != -INFINITY && b[k] == lo) {
				if (c->blame == BLAME_LOWEST)
					blame_add(r, in->rank_v[k]->rank);
				if (nlo++ == 0)
					lorank = in->rank_v[k]->rank;
			}
		a = incident_fmt_num(lo);
		z = incident_fmt_num(hi);
		free(r->detail);
		r->detail = nlo == 1 ?
		    xasprintf("%s %s on rank %d, others up to %s", c->fact, a, lorank, z) :
		    xasprintf("%s %s on %zu ranks, others up to %s", c->fact, a, nlo, z);
		free(a);
		free(z);
	}
	for (gi = 0; gi < ng; gi++)
		free(best[gi]);
	return ok;
}

/* Does any event the condition reads carry its group_by fact? When none
 * does, the logs are of a format that does not print it (PyTorch before
 * SeqNum: "WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000)"), and the
 * events are one group rather than none. (Most runs: the first says.) */
static int
group_said(const struct reading *rd)
{
	size_t x;

	for (x = 0; x < rd->n; x++) {
		const struct event *ev = x < rd->nidx ? rd->in->events[rd->idx[x]] :
		    rd->in->rows.v[rd->rows[x - rd->nidx]].ex;

		if (event_fact(ev, rd->c->group_id) != NULL)
			return 1;
	}
	return 0;
}

static void
eval_condition(const struct incident *in, const struct condition *c,
    struct condresult *r)
{
	struct tuple *t = NULL;
	unsigned char *has = xcalloc(in->rank_n + 1, 1);	/* by rank's k */
	unsigned char *from = xcalloc(in->rb->nsigs + 1, 1);	/* by signature index */
	uint32_t *idx, *rows;	/* event and row indices (incident.bysig's) */
	size_t i, x, n = 0, nr = 0;
	struct reading rd;
	struct strset keys = STRSET_INIT;
	int done = 0;

	r->cond = c;
	/* the events of its signatures, in arrival order, and their rows */
	idx = xmalloc(sizeof *idx * (collect(in, c, from, in->sigstart, in->bysig, NULL) + 1));
	rd.nidx = collect(in, c, from, in->sigstart, in->bysig, idx);
	if (c->nfromsig > 1)
		qsort(idx, rd.nidx, sizeof *idx, cond_index_cmp);
	rows = xmalloc(sizeof *rows * (collect(in, c, from, in->rowsigstart, in->rowbysig,
	    NULL) + 1));
	rd.n = rd.nidx + collect(in, c, from, in->rowsigstart, in->rowbysig, rows);
	rd.in = in;
	rd.c = c;
	rd.idx = idx;
	rd.rows = rows;
	rd.from = from;
	rd.pg = rulebook_find_fact(in->rb, "pg");
	rd.md = pcre2_match_data_create(1, NULL);
	rd.seen = xcalloc(c->nwhere + 1, sizeof *rd.seen);
	rd.keys = &keys;
	rd.one_group = c->group_id >= 0 && c->group2_id < 0 && !group_said(&rd);
	if ((c->test == TEST_DIFFERS && !(done = differs_by_rank(&rd, has, &nr, r))) ||
	    (c->test == TEST_BEHIND && !(done = behind_by_rank(&rd, has, &nr, r)))) {
		memset(has, 0, in->rank_n + 1);	/* (read again, as tuples) */
		nr = 0;
		r->met = 0;
		r->nblamed = 0;
		free(r->detail);
		r->detail = NULL;
	}
	if (!done && by_tuples(c))
		t = xmalloc(sizeof *t * (rd.n + 1));
	/* the events, then the rows (a ranked line of a signature with rows
	 * is read as its row: the event kept of it is the evidence) */
	for (x = 0; x < rd.n && !done; x++) {
		const char *v, *g;
		uint32_t order;
		int rank;

		if (!read_at(&rd, x, &rank, &v, &g, &order))
			continue;
		{
			const struct rankstate *rs = incident_rank(in, rank);

			if (rs != NULL && !has[rs->k]) {
				has[rs->k] = 1;
				nr++;
			}
		}
		if (t == NULL)
			continue;	/* (the ranks are all it needs) */
		t[n].group = g;
		if (c->test == TEST_DIFFERS)
			t[n].v.value = v ? v : "";
		else if (v == NULL || !incident_fact_number(v, &t[n].v.num))
			t[n].v.num = v ? strtod(v, NULL) : 0;
		t[n].rank = rank;
		t[n].order = order;
		n++;
	}
	switch (c->test) {
	case TEST_DIFFERS:
		if (!done)
			eval_differs(in, c, t, n, r);
		break;
	case TEST_OUTLIER:
		if (!by_tuples(c)) {
			outlier_from_stats(in, c, r);
			break;
		}
		/* FALLTHROUGH */
	case TEST_BEHIND:
		if (!done)
			eval_numeric(in, c, t, n, r);
		break;
	case TEST_MISSING:
		if (nr >= (size_t)c->min_ranks) {
			size_t miss = 0;
			int first = -1;

			for (i = 0; i < in->rank_n; i++)
				if (in->rank_v[i]->lines > 0 && !has[i]) {
					if (first < 0)
						first = in->rank_v[i]->rank;
					miss++;
					if (c->blame == BLAME_MISSING)
						blame_add(r, in->rank_v[i]->rank);
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

		qsort(r->blamed, r->nblamed, sizeof *r->blamed, incident_int_cmp);
		for (a = b = 1; a < r->nblamed; a++)
			if (r->blamed[a] != r->blamed[b - 1])
				r->blamed[b++] = r->blamed[a];
		r->nblamed = b;
	}
	if (r->met && rd.one_group) {
		/* the text may say "at the same SeqNum": say what was compared */
		char *d = xasprintf("%s%sthese logs print no %s: all compared as one group",
		    r->detail ? r->detail : "", r->detail ? "; " : "", c->group_by);

		free(r->detail);
		r->detail = d;
	}
	pcre2_match_data_free(rd.md);
	free(rd.seen);
	strset_release(&keys);
	free(t);
	free(has);
	free(from);
	free(idx);
	free(rows);
}

static int
cond_index_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void
conditions_evaluate(struct incident *in, struct analysis *an)
{
	const struct rulebook *rb = in->rb;
	size_t i;

	an->conds = xcalloc(rb->nconds + 1, sizeof *an->conds);
	an->nconds = rb->nconds;
	for (i = 0; i < rb->nconds; i++)
		eval_condition(in, rb->conds[i], &an->conds[i]);
}
