/* incident.c: collect events per rank as lines arrive, and run the passes
 * of the analysis (core/analysis.h) over them on demand. The reasoning is
 * written out in doc/analysis.md; keep the two in step. Nothing here knows
 * an entry by name: what a failure looks like lives in the rule files. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

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

/* Which signatures' events are summarised (incident_summarised). */
static void
summarised_init(struct incident *in)
{
	const struct rulebook *rb = in->rb;
	int kept = rulebook_find_fact(rb, INCIDENT_KEPT_FACT);
	size_t i, j;
	unsigned g;

	in->summarised = xcalloc(rb->nsigs + 1, 1);
	in->sumfirst = xmalloc((rb->nsigs + 1) * sizeof *in->sumfirst);
	in->factex = xcalloc(rb->nsigs + 1, sizeof *in->factex);
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		int about = 0;

		in->sumfirst[i] = -1;
		for (j = 0; j < ABOUT__COUNT; j++)
			if (s->about[j] >= 0)
				about = 1;
		in->summarised[i] = (s->role == ROLE_PROGRESS || s->role == ROLE_CONTEXT) &&
		    !about;
		for (g = 1; in->summarised[i] && g <= s->ngroups; g++)
			if (s->fact_of_group[g] >= 0 && s->fact_of_group[g] == kept)
				in->summarised[i] = 0;
	}
	for (i = 0; i < rb->nconds; i++) {
		const struct condition *c = rb->conds[i];

		if (c->test == TEST_OUTLIER && c->nwhere == 0 && c->group_id < 0)
			continue;	/* reads numstats */
		for (j = 0; j < c->nfromsig; j++)	/* rows, for the condition */
			if (in->summarised[c->fromsig[j]->index])
				in->summarised[c->fromsig[j]->index] = 2;
	}
}

int
incident_summarised(const struct incident *in, const struct signature *sig)
{
	return in->summarised[sig->index];
}

/* A summarised event: what the nodes count and the world size would read
 * of it, then it is kept only while it is the earliest of its signature.
 * The event, or NULL when it was not kept (and freed). */
static struct event *
summarise(struct incident *in, struct event *ev)
{
	int32_t *first = &in->sumfirst[ev->sig->index];

	attribute_summarise(in, ev);
	if (ev->node + 1 > in->sum_nodes)
		in->sum_nodes = ev->node + 1;
	if (ev->host != NULL && in->sum_host[1] == NULL &&
	    (in->sum_host[0] == NULL || strcmp(in->sum_host[0], ev->host) != 0))
		in->sum_host[in->sum_host[0] != NULL] = ev->host;
	if (ev->line_rank >= 0 && ev->line_rank_from != RANK_FILE) {
		if (in->sum_file == NULL) {
			in->sum_file = event_file(ev);
			in->sum_files = 1;
			in->sum_r0 = ev->line_rank;
		} else if (in->sum_file != event_file(ev) && strcmp(in->sum_file, event_file(ev)) != 0)
			in->sum_files = 2;
		if (ev->line_rank != in->sum_r0)
			in->sum_several = 1;
	}
	if (*first >= 0 && event_cmp_time(ev, in->events[*first]) >= 0) {
		event_free(ev);
		return NULL;
	}
	ev = event_own(ev, &in->pool);
	if (*first >= 0) {
		event_put(&in->pool, in->events[*first]);
		in->events[*first] = ev;
		return ev;
	}
	XGROW(in->events, in->capevents, in->nevents + 1);
	*first = (int32_t)in->nevents;
	in->events[in->nevents++] = ev;
	return ev;
}

struct incident *
incident_new(const struct rulebook *rb)
{
	struct incident *in = xcalloc(1, sizeof *in);

	in->rb = rb;
	in->unattributed.rank = -1;
	in->unattributed.step = -1;
	in->unattributed.pid = -1;
	in->unattributed.bins = &in->unattributed_bins;
	in->step_fact = rulebook_find_fact(rb, "step");
	in->rank_fact = rulebook_find_fact(rb, "rank");
	in->host_fact = rulebook_find_fact(rb, "host");
	in->exit_fact = rulebook_find_fact(rb, "exitcode");
	summarised_init(in);
	attribute_init(in);
	return in;
}

void
incident_timeline(struct incident *in, int on)
{
	in->no_timeline = !on;
	in->unattributed.bins = on ? &in->unattributed_bins : NULL;
}

static void
analysis_release(struct analysis *an)
{
	size_t i;

	free(an->reason);
	for (i = 0; i < an->nreasons; i++)
		free(an->reasons[i]);
	free(an->reasons);
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

/* (its slots are the pool's, which goes with the incident) */
static void
rankstate_release(struct rankstate *rs)
{
	if (rs->bins != NULL)
		bins_release(rs->bins);
}

void
incident_free(struct incident *in)
{
	size_t i;

	if (in == NULL)
		return;
	analysis_release(&in->an);
	for (i = 0; i < in->rank_n; i++)
		rankstate_release(in->rank_v[i]);
	free(in->rank_v);
	for (i = 0; i < in->nrank_blocks; i++)
		free(in->rank_blocks[i]);
	free(in->rank_blocks);
	for (i = 0; in->bins_blocks != NULL && i < in->nrank_blocks; i++)
		free(in->bins_blocks[i]);
	free(in->bins_blocks);
	imap_release(&in->rank_at);
	free(in->dense);
	strset_release(&in->hosts);
	free(in->summarised);
	free(in->sumfirst);
	free(in->engine.gpus);
	free(in->engine.comms);
	factrows_release(&in->rows);
	rankstate_release(&in->unattributed);
	for (i = 0; i < in->nevents; i++)
		event_put(&in->pool, in->events[i]);	/* (a large one is malloc'd) */
	free(in->events);
	for (i = 0; i < in->rb->nsigs; i++)	/* after the events that share them */
		event_free(in->factex[i]);
	free(in->factex);
	strset_release(&in->skeletons);
	evpool_release(&in->pool);
	free(in->byrank);
	free(in->rankstart);
	free(in->bysig);
	free(in->sigstart);
	free(in->rowbysig);
	free(in->rowsigstart);
	free(in);
}

struct rankstate *
incident_rank(const struct incident *in, int rank)
{
	size_t k;

	if (rank < 0)
		return (struct rankstate *)&in->unattributed;
	if ((size_t)rank < in->ndense)
		return in->dense[rank] >= 0 ? in->rank_v[in->dense[rank]] : NULL;
	if (!imap_get(&in->rank_at, rank, &k))
		return NULL;
	return in->rank_v[k];
}

/* Rank's index is k: in the array when it reaches that far, else in the
 * map (incident_rank looks in the array first). The array grows to cover
 * a new rank while the ranks shown fill at least half of it. */
static void
rank_index(struct incident *in, int rank, size_t k)
{
	if ((size_t)rank >= in->ndense && (size_t)rank < 2 * in->rank_n + 64) {
		size_t n = 2 * in->rank_n + 64, i;

		in->dense = xrealloc(in->dense, n * sizeof *in->dense);
		for (i = in->ndense; i < n; i++)
			in->dense[i] = -1;
		in->ndense = n;
		for (i = 0; i < in->rank_n; i++)	/* the ranks it now covers */
			if ((size_t)in->rank_v[i]->rank < n)
				in->dense[in->rank_v[i]->rank] = (int32_t)i;
		if ((size_t)in->top <= n)
			imap_release(&in->rank_at);	/* all of them */
	}
	if ((size_t)rank < in->ndense)
		in->dense[rank] = (int32_t)k;
	else
		imap_set(&in->rank_at, rank, k);
}

struct rankstate *
incident_rank_slot(struct incident *in, int rank)
{
	struct rankstate *rs;

	if (rank < 0 || rank >= INCIDENT_MAX_RANK)
		return &in->unattributed;
	if ((rs = incident_rank(in, rank)) != NULL)
		return rs;
	if (in->rank_n % INCIDENT_RANK_BLOCK == 0) {
		in->rank_blocks = xrealloc(in->rank_blocks,
		    (in->nrank_blocks + 1) * sizeof *in->rank_blocks);
		/* (104 KiB, and 32 KiB of timeline: for a run of a few
		 * ranks, no more than that) */
		in->rank_blocks[in->nrank_blocks] = xcalloc(INCIDENT_RANK_BLOCK, sizeof *rs);
		if (!in->no_timeline) {
			in->bins_blocks = xrealloc(in->bins_blocks,
			    (in->nrank_blocks + 1) * sizeof *in->bins_blocks);
			in->bins_blocks[in->nrank_blocks] = xcalloc(INCIDENT_RANK_BLOCK,
			    sizeof **in->bins_blocks);
		}
		in->nrank_blocks++;
	}
	rs = &in->rank_blocks[in->nrank_blocks - 1][in->rank_n % INCIDENT_RANK_BLOCK];
	if (!in->no_timeline)
		rs->bins = &in->bins_blocks[in->nrank_blocks - 1][in->rank_n % INCIDENT_RANK_BLOCK];
	rs->rank = rank;
	rs->step = -1;
	rs->pid = -1;
	XGROW(in->rank_v, in->rank_cap, in->rank_n + 1);
	rs->k = in->rank_n;
	in->rank_v[in->rank_n++] = rs;
	rank_index(in, rank, rs->k);
	if (in->rank_n > 1 && in->rank_v[in->rank_n - 2]->rank > rank)
		in->rank_sorted = 0;
	if (rank >= in->top)
		in->top = rank + 1;
	return rs;
}

static int
rankstate_cmp(const void *a, const void *b)
{
	const struct rankstate *x = *(struct rankstate *const *)a;
	const struct rankstate *y = *(struct rankstate *const *)b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void
incident_sort(struct incident *in)
{
	size_t k;

	if (in->rank_sorted)
		return;
	if (in->rank_n > 1)
		qsort(in->rank_v, in->rank_n, sizeof *in->rank_v, rankstate_cmp);
	for (k = 0; k < in->rank_n; k++) {
		in->rank_v[k]->k = (uint32_t)k;
		rank_index(in, in->rank_v[k]->rank, k);
	}
	in->rank_sorted = 1;
}

size_t
incident_active_ranks(const struct incident *in)
{
	size_t i, n = 0;

	for (i = 0; i < in->rank_n; i++)
		if (in->rank_v[i]->lines > 0)
			n++;
	return n;
}

static int
signature_is_about(const struct signature *s)
{
	return s->about[ABOUT_RANK] >= 0 || s->about[ABOUT_LOCAL_RANK] >= 0 ||
	    s->about[ABOUT_PID] >= 0 || s->about[ABOUT_TASK] >= 0;
}

/* --- the timeline ------------------------------------------------------- */

/* Old slice i starts at old0 + i * oldw: which new slice holds it. */
static void
rebin_map(int64_t old0, int64_t oldw, int64_t new0, int64_t neww,
    uint8_t map[TIMELINE_BINS])
{
	size_t i;

	for (i = 0; i < TIMELINE_BINS; i++) {
		int64_t j = (old0 + (int64_t)i * oldw - new0) / neww;

		map[i] = (uint8_t)(j < 0 ? 0 : j >= TIMELINE_BINS ? TIMELINE_BINS - 1 : j);
	}
}

static size_t
bin_of(struct incident *in, int64_t sec)
{
	int64_t new0 = in->bin0, neww = in->binw, i;
	uint8_t map[TIMELINE_BINS];

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
	rebin_map(in->bin0, in->binw, new0, neww, map);
	if (!in->no_timeline) {
		bins_remap(in->unattributed.bins, map);
		for (i = 0; i < (int64_t)in->rank_n; i++)
			bins_remap(in->rank_v[i]->bins, map);
	}
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
	incident_add_lines(in, ln, 1, ln->rawlen + 1, &ln->ts);
}

void
incident_add_lines(struct incident *in, const struct line *ln, uint32_t nlines,
    uint64_t nbytes, const struct stamp *latest)
{
	struct rankstate *rs = incident_rank_slot(in, ln->rank);
	size_t b;

	in->analysed = 0;
	in->lines += nlines;
	in->bytes += nbytes;
	rs->lines += nlines;
	if (ln->host != NULL && rs->host == NULL && ln->hostlen > 0 && ln->hostlen < 64)
		rs->host = strset_add(&in->hosts, ln->host, ln->hostlen);
	if (ln->pid >= 0 && ln->rank >= 0)
		rs->pid = ln->pid;
	if (!stamp_own(&ln->ts))
		return;
	in->timed_lines += nlines;
	if (!(rs->last.flags & STAMP_TIME) || ln->ts.sec < rs->first_sec)
		rs->first_sec = ln->ts.sec;
	if (!(rs->last.flags & STAMP_TIME) || earlier(&rs->last, latest))
		rs->last = *latest;
	if (!(in->first.flags & STAMP_TIME) || earlier(&ln->ts, &in->first))
		in->first = ln->ts;
	if (!(in->last.flags & STAMP_TIME) || earlier(&in->last, latest))
		in->last = *latest;
	b = bin_of(in, ln->ts.sec);	/* (the timeline's span, kept or not) */
	if (rs->bins != NULL)
		bins_add_n(rs->bins, b, nlines);
}

/* A fact's value as a number (what strtod reads of all of it, not NaN).
 * Plain decimals of up to 15 digits, most facts, skip strtod: their
 * digits and the power of ten are exact doubles, so one division rounds
 * exactly as strtod does. */
int
incident_fact_number(const char *v, double *out)
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

_Static_assert(RANKSTATE_SLOTS(1) * sizeof(struct sigslot) % _Alignof(struct numstat) == 0,
    "a rank's numstats, after its slots, are aligned");

/* Room for one more slot (slot: 1) or numstat (slot: 0) in a rank's one
 * block of the incident's pool, its slots four at a time (RANKSTATE_SLOTS)
 * and its numstats (one or two a rank, mostly) to the byte; the block it
 * had goes back to the pool, for the next rank. Slot and numstat pointers
 * taken before are no longer valid. */
static void
rankstate_grow(struct incident *in, struct rankstate *rs, int slot)
{
	size_t had = RANKSTATE_SLOTS(rs->nslots), want = RANKSTATE_SLOTS(rs->nslots + (slot != 0));
	struct sigslot *v;

	if (slot && want == had && rs->nslots < had)
		return;	/* room for the slot */
	v = evpool_get(&in->pool, RANKSTATE_BYTES(want, rs->nnums + (slot == 0)));
	if (rs->slots != NULL) {
		memcpy(v, rs->slots, rs->nslots * sizeof *v);
		memcpy(v + want, rs->slots + had, rs->nnums * sizeof(struct numstat));
		evpool_give(&in->pool, rs->slots, RANKSTATE_BYTES(rs->nslots, rs->nnums));
	}
	rs->slots = v;
}

static void
numstats_add(struct incident *in, struct rankstate *rs, const struct event *ev)
{
	unsigned i;
	size_t j;

	/* (a signature of index 2^24 or more, a fact past its 256th: none) */
	for (i = 0; i < ev->sig->nstatfacts && i < 256 && ev->sig->index < (1u << 24); i++) {
		const char *v = event_fact(ev, ev->sig->statfacts[i]);
		double x;
		struct numstat *ns = NULL;

		if (v == NULL || !incident_fact_number(v, &x))
			continue;
		for (j = 0; j < rs->nnums; j++)
			if (rankstate_nums(rs)[j].sig == ev->sig->index &&
			    rankstate_nums(rs)[j].stat == i) {
				ns = &rankstate_nums(rs)[j];
				break;
			}
		if (ns == NULL) {
			rankstate_grow(in, rs, 0);
			ns = &rankstate_nums(rs)[rs->nnums++];
			ns->sig = (uint32_t)ev->sig->index;
			ns->stat = i;
			ns->count = 0;
			ns->sum = 0;
		}
		ns->count++;
		ns->sum += x;
	}
}

/* rank's slot of signature sig, NULL when none. */
static struct sigslot *
sigslot_find(const struct rankstate *rs, uint32_t sig)
{
	uint32_t i;

	for (i = 0; i < rs->nslots; i++)
		if (rs->slots[i].sig == sig)
			return &rs->slots[i];
	return NULL;
}

/* ... made when it has none (numstat pointers then move). */
static struct sigslot *
sigslot_of(struct incident *in, struct rankstate *rs, uint32_t sig)
{
	struct sigslot *sl = sigslot_find(rs, sig);

	if (sl != NULL)
		return sl;
	rankstate_grow(in, rs, 1);
	rs->slots[rs->nslots].sig = sig;
	rs->slots[rs->nslots].count = 0;
	rs->slots[rs->nslots].held = 0;
	rs->slots[rs->nslots].recent = -1;
	return &rs->slots[rs->nslots++];
}

/* A rank's row of a signature a condition compares (summarised 2): its
 * first and its newest are kept, as the events of a routine signature
 * would be; a line with the facts of the newest adds nothing to compare. */
static void
row_keep(struct incident *in, struct sigslot *sl, const struct event *ev)
{
	const struct event *ex = factrows_exemplar(&in->rows, ev);
	size_t i;

	if (sl->recent >= 0 && in->rows.v[sl->recent].ex == ex)
		return;
	if (sl->count <= INCIDENT_KEEP_ROUTINE || !sl->held) {
		i = factrows_add(&in->rows, ev, ex);
		if (sl->count > INCIDENT_KEEP_ROUTINE)
			sl->held = 1;
		sl->recent = (int32_t)i;
		return;
	}
	in->rows.v[sl->recent].order = ev->order;
	in->rows.v[sl->recent].ex = ex;
}

struct event *
incident_add_event(struct incident *in, struct event *ev)
{
	struct rankstate *rs;
	double v;
	struct sigslot *sl;
	unsigned keep;

	in->analysed = 0;
	ev->order = in->order++;
	/* the incident's copy of its host: the source's goes when the source
	 * is read (source_retire) */
	if (ev->host != NULL)
		ev->host = strset_add(&in->hosts, ev->host, strlen(ev->host));
	/* A rank named in the message (torchrun summary, srun's "task N")
	 * beats a group-local one and no rank at all. */
	if (in->rank_fact >= 0 && ev->rank_from <= RANK_GROUP) {
		const char *r = event_fact(ev, in->rank_fact);

		if (r != NULL && *r >= '0' && *r <= '9' && strspn(r, "0123456789") == strlen(r)) {
			ev->rank = atoi(r);
			ev->rank_from = RANK_NAMED;
		}
	}
	if ((ev->sig->role == ROLE_INITIATING || ev->sig->role == ROLE_COLLATERAL) &&
	    !signature_is_lone(ev->sig))
		in->told_trouble++;
	rs = incident_rank_slot(in, ev->rank);
	if (ev->rank >= INCIDENT_MAX_RANK)
		ev->rank = -1;
	ev->line_rank = ev->rank;
	ev->line_rank_from = ev->rank_from;
	attribute_note_process(in, ev);
	numstats_add(in, rs, ev);	/* (before the slot is taken: it may move it) */
	sl = sigslot_of(in, rs, (uint32_t)ev->sig->index);
	if (ev->sig->role == ROLE_PROGRESS && in->step_fact >= 0 &&
	    event_fact_num(ev, in->step_fact, &v) && v >= rs->step)
		rs->step = v;
	if (ev->host != NULL && rs->host == NULL)
		rs->host = ev->host;
	if ((ev->ts.flags & STAMP_TIME) && in->binw != 0 && ev->sig->role != ROLE_PROGRESS &&
	    ev->sig->role != ROLE_CONTEXT) {
		size_t b = bin_of(in, ev->ts.sec);	/* (the span, kept or not) */

		/* (a line of last resort is marked as the fallout it is in
		 * most runs; the analysis may still pick it) */
		if (rs->bins != NULL)
			bins_mark(rs->bins, b, 1u << (ev->sig->last_resort ?
			    ROLE_COLLATERAL : ev->sig->role));
	}
	sl->count++;
	if (ev->rank >= 0 && in->summarised[ev->sig->index] == 2)
		row_keep(in, sl, ev);
	if (ev->rank >= 0 && in->summarised[ev->sig->index])
		return summarise(in, ev);
	/* The same line again (a timeout quoted by the exception that
	 * carries it, and again by the terminate message): counted, and its
	 * numbers are in numstats, but it tells the analysis nothing the
	 * newest kept copy does not (neither the first, nor the latest value,
	 * nor a maximum). Not for unranked lines, which attribution may yet
	 * give different ranks. */
	if (ev->rank >= 0 && sl->recent >= 0 && event_repeats(ev, in->events[sl->recent])) {
		event_free(ev);
		return NULL;
	}
	/* A line with no rank that names whom it is about (a launcher's
	 * report) is kept in full: the attribution pass needs each one. A
	 * routine line (progress, context) is kept once and as the last:
	 * its numbers are counted in numstats, its facts are the first's. */
	keep = ev->rank < 0 && signature_is_about(ev->sig) ? INCIDENT_KEEP_ABOUT :
	    ev->sig->role == ROLE_PROGRESS || ev->sig->role == ROLE_CONTEXT ?
	    INCIDENT_KEEP_ROUTINE : INCIDENT_KEEP;
	if (in->factex[ev->sig->index] == NULL && ev->nfacts > 0)
		in->factex[ev->sig->index] = event_facts_copy(ev);
	ev = event_compact(ev, &in->skeletons, in->factex[ev->sig->index], &in->pool);
	if (sl->count <= keep || !sl->held) {
		XGROW(in->events, in->capevents, in->nevents + 1);
		if (sl->count > keep)
			sl->held = 1;
		sl->recent = (int32_t)in->nevents;
		in->events[in->nevents++] = ev;
	} else {
		event_put(&in->pool, in->events[sl->recent]);
		in->events[sl->recent] = ev;
	}
	return ev;
}

struct event_ref
incident_event_ref(const struct incident *in, const struct event *ev)
{
	struct event_ref ref;

	(void)in;
	ref.order = ev->order;
	ref.rank = ev->rank;
	ref.sig = (uint32_t)ev->sig->index;
	return ref;
}

void
incident_bound_event(struct incident *in, const struct event_ref *ref,
    const struct stamp *upper)
{
	struct rankstate *rs = ref->rank >= 0 ? incident_rank(in, ref->rank) : &in->unattributed;
	struct event *ev = NULL;
	size_t i;

	/* the newest copy of its rank and signature, or an earlier kept one */
	const struct sigslot *sl = rs != NULL ? sigslot_find(rs, (uint32_t)ref->sig) : NULL;

	if (sl != NULL && !in->summarised[ref->sig] && sl->held &&
	    in->events[sl->recent]->order == ref->order)
		ev = in->events[sl->recent];
	if (in->sumfirst[ref->sig] >= 0 && in->events[in->sumfirst[ref->sig]]->order == ref->order)
		ev = in->events[in->sumfirst[ref->sig]];
	for (i = in->nevents; ev == NULL && i > 0; i--) {
		if (in->events[i - 1]->order == ref->order)
			ev = in->events[i - 1];
		else if (in->events[i - 1]->order < ref->order)
			break;	/* every slot after it holds a newer event: it is gone */
	}
	if (ev == NULL || !(ev->ts.flags & STAMP_INHERITED) || (event_upper(ev)->flags & STAMP_TIME))
		return;
	event_set_upper(ev, upper);
	in->analysed = 0;
}

/* --- helpers ------------------------------------------------------------- */

int
incident_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

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
analysis_lead_suspects(const struct analysis *an, size_t *n)
{
	int *v;
	size_t k = 0;
	char *list, *s;

	if (n != NULL)
		*n = 0;
	if (an->nsuspects == 0)
		return xstrdup("");
	v = xmalloc(sizeof *v * an->nsuspects);
	while (k < an->nsuspects && an->suspects[k].score >= an->suspects[0].score) {
		v[k] = an->suspects[k].rank;
		k++;
	}
	qsort(v, k, sizeof *v, incident_int_cmp);
	list = ranks_compress(v, k);
	s = xasprintf("rank%s %s", k == 1 ? "" : "s", list);
	free(list);
	free(v);
	if (n != NULL)
		*n = k;
	return s;
}

char *
incident_ranks_with_role(const struct incident *in, enum rank_role r)
{
	int *v = xmalloc(sizeof *v * (in->rank_n + 1));
	size_t i, n = 0;
	char *s;

	for (i = 0; i < in->rank_n; i++)	/* in rank order: after an analysis */
		if (in->rank_v[i]->role == r)
			v[n++] = in->rank_v[i]->rank;
	s = ranks_compress(v, n);
	free(v);
	return s;
}

int
incident_is_active(const struct incident *in, int rank)
{
	const struct rankstate *rs = rank >= 0 ? incident_rank(in, rank) : NULL;

	return rs != NULL && rs->lines > 0;
}

/* Quality of an event's time for ordering: own time beats an inherited
 * one beats a launcher's report beats none. */
int
incident_time_quality(const struct event *ev)
{
	if (!(ev->ts.flags & STAMP_TIME))
		return 0;
	/* a launcher's line says when it noticed, not when the rank failed */
	if ((ev->ts.flags & STAMP_REPORTED) || ev->via == VIA_LAUNCHER)
		return 1;
	if (ev->ts.flags & STAMP_INHERITED)
		return 2;
	return 3;
}

int
incident_next_rank(const char **v, long *r)
{
	char *end;

	while (**v != '\0' && (**v < '0' || **v > '9'))
		(*v)++;
	if (**v == '\0')
		return 0;
	*r = strtol(*v, &end, 10);
	*v = end;
	return 1;
}

const char *
incident_host(const struct incident *in, int rank)
{
	const struct rankstate *rs = incident_rank(in, rank);

	return rs != NULL ? rs->host : NULL;
}

/* --- analysis --------------------------------------------------------- */

/* Group event indices by rank (counting sort), so that per-rank questions
 * cost that rank's events, not all of them. */
/* An event's group for index_by_rank: 0 no rank, 1 + its rank's k. */
static size_t
event_group(const struct incident *in, const struct event *ev)
{
	const struct rankstate *rs = ev->rank >= 0 ? incident_rank(in, ev->rank) : NULL;

	return rs != NULL ? rs->k + 1 : 0;
}

static void
index_by_rank(struct incident *in)
{
	size_t i, n = in->rank_n + 2;

	free(in->byrank);
	free(in->rankstart);
	in->byrank = xmalloc(sizeof *in->byrank * (in->nevents + 1));
	in->rankstart = xcalloc(n + 1, sizeof *in->rankstart);
	/* each event's group, looked up once: byrank holds them first */
	for (i = 0; i < in->nevents; i++) {
		in->byrank[i] = (uint32_t)event_group(in, in->events[i]);
		in->rankstart[in->byrank[i] + 1]++;
	}
	for (i = 1; i <= n; i++)
		in->rankstart[i] += in->rankstart[i - 1];
	{
		uint32_t *g = in->byrank;

		in->byrank = xmalloc(sizeof *in->byrank * (in->nevents + 1));
		for (i = 0; i < in->nevents; i++)
			in->byrank[in->rankstart[g[i]]++] = (uint32_t)i;
		free(g);
	}
	for (i = n; i > 0; i--)
		in->rankstart[i] = in->rankstart[i - 1];
	in->rankstart[0] = 0;
}

static size_t
event_sig(const struct incident *in, size_t i)
{
	return in->events[i]->sig->index;
}

static size_t
row_sig(const struct incident *in, size_t i)
{
	return in->rows.v[i].ex->sig->index;
}

/* Indices 0..n by signature (sig_of), in their order within each:
 * (*by)[(*start)[si] .. (*start)[si + 1]) are signature si's. */
static void
index_sigs(const struct incident *in, size_t n, size_t (*sig_of)(const struct incident *, size_t),
    uint32_t **by, size_t **start)
{
	size_t i, ns = in->rb->nsigs;

	free(*by);
	free(*start);
	*by = xmalloc(sizeof **by * (n + 1));
	*start = xcalloc(ns + 2, sizeof **start);
	for (i = 0; i < n; i++)
		(*start)[sig_of(in, i) + 1]++;
	for (i = 1; i <= ns; i++)
		(*start)[i] += (*start)[i - 1];
	for (i = 0; i < n; i++)
		(*by)[(*start)[sig_of(in, i)]++] = (uint32_t)i;
	for (i = ns; i > 0; i--)
		(*start)[i] = (*start)[i - 1];
	(*start)[0] = 0;
}

/* Event and row indices by signature, in arrival order within each: a
 * condition reads the events and rows of its few signatures, not all. */
static void
index_by_sig(struct incident *in)
{
	index_sigs(in, in->nevents, event_sig, &in->bysig, &in->sigstart);
	index_sigs(in, in->rows.n, row_sig, &in->rowbysig, &in->rowsigstart);
}

/* The events of a rank: in->events[in->byrank[*lo .. *hi)]. */
void
incident_rank_events(const struct incident *in, int rank, size_t *lo, size_t *hi)
{
	const struct rankstate *rs = rank >= 0 ? incident_rank(in, rank) : NULL;
	size_t r = rs != NULL ? rs->k + 1 : 0;

	if (in->rankstart == NULL || rank < -1 || (rank >= 0 && rs == NULL) ||
	    r + 1 > in->rank_n + 1) {
		*lo = *hi = 0;
		return;
	}
	*lo = in->rankstart[r];
	*hi = in->rankstart[r + 1];
}

const struct event *
incident_first_of_rank(const struct incident *in, int rank, int (*want)(const struct event *))
{
	const struct event *best = NULL;
	size_t i, lo, hi;

	incident_rank_events(in, rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank != rank || !want(ev) || incident_lone_muted(in, ev))
			continue;
		if (best == NULL || incident_time_quality(ev) > incident_time_quality(best))
			best = ev;
		else if (incident_time_quality(ev) == incident_time_quality(best)) {
			/* Two signatures on one line: the weightier (more
			 * specific) one speaks for it. */
			if (event_same_line(ev, best)) {
				if (ev->sig->weight > best->sig->weight)
					best = ev;
			} else if (event_cmp_time(ev, best) < 0)
				best = ev;
		}
	}
	return best;
}

int
incident_want_initiating(const struct event *ev)
{
	return ev->sig->role == ROLE_INITIATING;
}

/* An initiating event that says that its rank failed: not a line of
 * last resort (a process that aborted, no word why), which counts only
 * where nothing else does (order.c). */
int
incident_want_own_failure(const struct event *ev)
{
	return ev->sig->role == ROLE_INITIATING && !ev->sig->last_resort;
}

int
incident_lone_muted(const struct incident *in, const struct event *ev)
{
	return in->told_trouble > 0 && signature_is_lone(ev->sig);
}

int
incident_want_trouble(const struct event *ev)
{
	return ev->sig->role == ROLE_INITIATING || ev->sig->role == ROLE_COLLATERAL ||
	    ev->sig->role == ROLE_SYMPTOM;
}

int
incident_want_collateral(const struct event *ev)
{
	return ev->sig->role == ROLE_COLLATERAL;
}

int64_t
incident_span_ns(const struct stamp *a, const struct stamp *b)
{
	const int64_t most = INT64_MAX / 1000000000LL - 1;
	int64_t d = b->sec - a->sec;

	/* stamps centuries apart (a year 0001 and a 9999): saturate */
	if (d > most)
		return INT64_MAX;
	if (d < -most)
		return -INT64_MAX;
	return d * 1000000000LL + (b->nsec - a->nsec);
}

char *
incident_fmt_num(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return xasprintf("%.0f", v);
	return xasprintf("%g", v);
}

void
incident_index(struct incident *in)
{
	index_by_rank(in);
	index_by_sig(in);
}

/* The passes, in order (core/analysis.h says what each decides). */
void
incident_unread(struct incident *in, size_t n, const char *first)
{
	if (n != in->unread || first != in->unread_first)
		in->analysed = 0;
	in->unread = n;
	in->unread_first = first;
}

const struct analysis *
incident_analyse(struct incident *in)
{
	struct analysis *an = &in->an;
	struct passes p;

	if (in->analysed)
		return an;
	analysis_release(an);
	memset(&p, 0, sizeof p);
	attribute_events(in, an);	/* may add ranks the logs name */
	incident_sort(in);
	incident_index(in);
	conditions_evaluate(in, an);
	order_choose(in, an, &p);
	suspects_score(in, an, &p);	/* allocates p.score, p.blamed, p.why */
	verdict_decide(in, an, &p);
	verdict_roles(in, an, &p);
	diagnose_entries(in, an);
	verdict_explain(in, an, &p);
	passes_release(&p);
	an->multi_host = in->multi_hosts;	/* attribute_events compared the hosts */
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
