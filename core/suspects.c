/* suspects.c: who the evidence points at, scored per rank: ranks blamed
 * by a met condition (the condition's weight), a rank silent before the
 * first timeout (3), silent while others wrote (1.5), behind in training
 * steps (1), and in a failure the initiating rank and those tied with it
 * (100 and down). Only ranks the run establishes (an->world) can be
 * suspected of writing nothing at all. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

/* --- suspects ------------------------------------------------------------- */


/* The index of rank's score in p, made when new. */
static size_t
score_at(struct passes *p, int rank)
{
	size_t j;

	if (imap_get(&p->at, rank, &j))
		return j;
	if (p->nscore == p->capscore) {
		size_t cap = p->capscore;

		p->srank = xgrow(p->srank, &cap, p->nscore + 1, sizeof *p->srank);
		cap = p->capscore;
		p->score = xgrow(p->score, &cap, p->nscore + 1, sizeof *p->score);
		cap = p->capscore;
		p->blamed = xgrow(p->blamed, &cap, p->nscore + 1, sizeof *p->blamed);
		cap = p->capscore;
		p->whyhead = xgrow(p->whyhead, &cap, p->nscore + 1, sizeof *p->whyhead);
		cap = p->capscore;
		p->whytail = xgrow(p->whytail, &cap, p->nscore + 1, sizeof *p->whytail);
		p->capscore = cap;
	}
	j = p->nscore++;
	p->srank[j] = rank;
	p->score[j] = 0;
	p->blamed[j] = 0;
	p->whyhead[j] = p->whytail[j] = 0;
	imap_set(&p->at, rank, j);
	return j;
}

double
passes_score(const struct passes *p, int rank)
{
	size_t j;

	return rank >= 0 && imap_get(&p->at, rank, &j) ? p->score[j] : 0;
}

int
passes_blamed(const struct passes *p, int rank)
{
	size_t j;

	return rank >= 0 && imap_get(&p->at, rank, &j) ? p->blamed[j] : 0;
}

void
passes_release(struct passes *p)
{
	size_t j;

	for (j = 0; j < p->nwhytext; j++)
		free(p->whytext[j]);
	free(p->whytext);
	free(p->whynode);
	free(p->srank);
	free(p->score);
	free(p->blamed);
	free(p->whyhead);
	free(p->whytail);
	imap_release(&p->at);
	free(p->co);
}

/* Give score j the reason why (a copy, shared with the reason given
 * just before when it is the same), after its others or, first, before. */
static void
why_add(struct passes *p, size_t j, const char *why, int first)
{
	uint32_t n;

	if (p->nwhytext == 0 || strcmp(p->whytext[p->nwhytext - 1], why) != 0) {
		XGROW(p->whytext, p->capwhytext, p->nwhytext + 1);
		p->whytext[p->nwhytext++] = xstrdup(why);
	}
	XGROW(p->whynode, p->capwhynode, p->nwhynode + 2);
	if (p->nwhynode == 0)
		p->nwhynode = 1;
	n = (uint32_t)p->nwhynode++;
	p->whynode[n].text = (uint32_t)(p->nwhytext - 1);
	p->whynode[n].next = 0;
	if (p->whyhead[j] == 0)
		p->whyhead[j] = p->whytail[j] = n;
	else if (first) {
		p->whynode[n].next = p->whyhead[j];
		p->whyhead[j] = n;
	} else {
		p->whynode[p->whytail[j]].next = n;
		p->whytail[j] = n;
	}
}

/* Score j's reasons, joined with "; "; caller frees. */
static char *
why_join(const struct passes *p, size_t j)
{
	struct buf b = BUF_INIT;
	uint32_t n;

	for (n = p->whyhead[j]; n != 0; n = p->whynode[n].next) {
		if (b.len)
			buf_adds(&b, "; ");
		buf_adds(&b, p->whytext[p->whynode[n].text]);
	}
	return buf_detach(&b);
}

/* Do scores i and j have the same reasons? */
static int
why_same(const struct passes *p, size_t i, size_t j)
{
	uint32_t a = p->whyhead[i], b = p->whyhead[j];

	for (; a != 0 && b != 0; a = p->whynode[a].next, b = p->whynode[b].next)
		if (p->whynode[a].text != p->whynode[b].text)
			return 0;
	return a == b;
}

/* Ranks below `below` can be scored. */
static void
suspect_add_below(struct passes *p, int rank, int below, double score, const char *why)
{
	size_t j;

	if (rank < 0 || rank >= below)
		return;
	j = score_at(p, rank);
	p->score[j] += score;
	why_add(p, j, why, 0);
}

/* Ranks below the highest the run shows can be scored; a higher number
 * is not a rank of this run as far as the logs tell. */
static void
suspect_add(const struct incident *in, struct passes *p, int rank, double score,
    const char *why)
{
	suspect_add_below(p, rank, in->top, score, why);
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

static void
describe_event(struct buf *b, const struct analysis *an, const struct event *ev)
{
	char when[40];

	buf_adds(b, ev == an->initiating ? an->init_entry->title : ev->sig->entry->title);
	if (ev->ts.flags & STAMP_TIME) {
		stamp_format(&ev->ts, 0, when, sizeof when);
		buf_printf(b, " at %s", when);
	}
}

/* A line that points at other ranks (about: suspect): the peer whose
 * collective differs, the rank that first detected a timeout, the ranks a
 * monitored barrier names ("Ranks 1, 3 failed to pass monitoredBarrier").
 * A rank pointed at counts once, however many lines point at it. The
 * program that wrote the line knew its run's ranks: one above the highest
 * the logs show is one of them too (below the world size, when the logs
 * establish it; at most POINTED_MAX above the highest, when not). */
#define POINTED_MAX	4096

static void
points_at(struct incident *in, const struct analysis *an, struct passes *p)
{
	struct imap seen = IMAP_INIT;	/* ranks pointed at already */
	int below = an->world > 0 ? an->world : in->top + POINTED_MAX;
	size_t i, dummy;

	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];
		const char *v, *what;
		long r;

		if (ev->sig->about[ABOUT_SUSPECT] < 0 ||
		    (v = event_fact(ev, ev->sig->about[ABOUT_SUSPECT])) == NULL)
			continue;
		what = ev->sig->message ? ev->sig->message : ev->sig->entry->title;
		while (incident_next_rank(&v, &r)) {
			char *w;

			if (r < 0 || r >= below || r == ev->rank || imap_get(&seen, (int)r, &dummy))
				continue;
			imap_set(&seen, (int)r, 0);
			if (ev->rank >= 0)
				w = xasprintf("rank %d's line points at it (%s, %s:%lu)", ev->rank,
				    what, event_file(ev), (unsigned long)ev->lineno);
			else
				w = xasprintf("a line points at it (%s, %s:%lu)", what, event_file(ev),
				    (unsigned long)ev->lineno);
			suspect_add_below(p, (int)r, below, 3, w);
			free(w);
		}
	}
	imap_release(&seen);
}

/* Trouble that is not a wait or what follows one (the lines of an entry
 * whose fallout says a rank waited: a timeout, its teardown, its abort). */
static int
not_waiting(const struct event *ev)
{
	return incident_want_trouble(ev) && !(ev->sig->role == ROLE_COLLATERAL &&
	    ev->sig->fallout == FALLOUT_WAIT);
}

/* The latest own times of all ranks, the two latest kept: "the other
 * ranks" of a rank are all but itself (lines that carry no rank are not
 * other ranks). */
struct latest {
	const struct stamp	*t[2];
	int			 rank[2];
};

static void
latest_init(const struct incident *in, struct latest *l)
{
	size_t i;

	l->t[0] = l->t[1] = NULL;
	l->rank[0] = l->rank[1] = -1;
	for (i = 0; i < in->rank_n; i++) {
		const struct rankstate *rs = in->rank_v[i];

		if (!(rs->last.flags & STAMP_TIME))
			continue;
		if (l->t[0] == NULL || stamp_cmp(l->t[0], &rs->last) < 0) {
			l->t[1] = l->t[0];
			l->rank[1] = l->rank[0];
			l->t[0] = &rs->last;
			l->rank[0] = rs->rank;
		} else if (l->t[1] == NULL || stamp_cmp(l->t[1], &rs->last) < 0) {
			l->t[1] = &rs->last;
			l->rank[1] = rs->rank;
		}
	}
}

static const struct stamp *
others_last(const struct latest *l, int rank)
{
	return l->rank[0] == rank ? l->t[1] : l->t[0];
}

/* When the collective of the first timeout began: its time minus how long
 * it ran (a watchdog line says "ran for N milliseconds"). */
static int
collective_start(const struct incident *in, const struct passes *p, struct stamp *out)
{
	int ran = rulebook_find_fact(in->rb, "ran_ms");
	const struct event *c = p->first_coll;
	double ms;

	if (c == NULL || ran < 0 || !(c->ts.flags & STAMP_TIME) ||
	    (c->ts.flags & STAMP_INHERITED) || !event_fact_num(c, ran, &ms) || ms <= 0 ||
	    ms > 1e10)
		return 0;
	*out = c->ts;
	out->sec -= (int64_t)(ms / 1000);
	out->nsec -= (int32_t)((int64_t)ms % 1000) * 1000000;
	if (out->nsec < 0) {
		out->nsec += 1000000000;
		out->sec--;
	}
	return 1;
}

void
suspects_score(struct incident *in, struct analysis *an, struct passes *p)
{
	const struct stamp *other;
	struct latest latest;
	struct stamp start;
	int have_start, missing_counts;
	double maxstep = -1;
	size_t steppers = 0, i, j, last;
	int wr;
	char when[40], span[40];

	for (i = 0; i < an->nconds; i++) {
		struct condresult *r = &an->conds[i];
		char *w;

		if (!r->met || r->nblamed == 0)
			continue;
		w = r->detail ? xasprintf("%s (%s)", r->cond->text, r->detail) :
		    xstrdup(r->cond->text);
		for (j = 0; j < r->nblamed; j++) {
			suspect_add(in, p, r->blamed[j], r->cond->weight, w);
			if (r->blamed[j] >= 0 && r->blamed[j] < in->top)
				p->blamed[score_at(p, r->blamed[j])] = 1;
		}
		free(w);
	}
	latest_init(in, &latest);
	{
		size_t present = incident_active_ranks(in);

		missing_counts = an->world > 0 && (size_t)an->world <= 2 * present;
	}
	have_start = collective_start(in, p, &start);
	points_at(in, an, p);
	for (i = 0; i < in->rank_n; i++) {
		struct rankstate *rs = in->rank_v[i];

		if (rs->step >= 0) {
			steppers++;
			if (rs->step > maxstep)
				maxstep = rs->step;
		}
	}
	/* Only a rank the run establishes can be missing; a gap between
	 * rank-named files is not evidence, nor are the many ranks an excerpt
	 * leaves out. (missing_counts: at least half the world wrote, so
	 * this walk costs no more than the ranks that did.) */
	if (an->world > 0 && missing_counts)
		for (wr = 0; wr < an->world; wr++) {
			const struct rankstate *rs = incident_rank(in, wr);

			if ((rs == NULL || rs->lines == 0) &&
			    incident_first_of_rank(in, wr, incident_want_trouble) == NULL)
				suspect_add_below(p, wr, an->world, 1, "wrote nothing at all");
		}
	for (i = 0; i < in->rank_n; i++) {
		struct rankstate *rs = in->rank_v[i];
		int rank = rs->rank;

		if (rs->lines == 0)
			continue;
		if (!(rs->last.flags & STAMP_TIME))
			continue;
		stamp_format(&rs->last, 0, when, sizeof when);
		/* (silent before a launcher's teardown says nothing: the
		 * launcher ends every rank after a failure, whichever wrote
		 * last; only a wait or an error dates the trouble) */
		if (p->first_coll != NULL && (p->first_coll->ts.flags & STAMP_TIME) &&
		    p->first_coll->sig->fallout != FALLOUT_TEARDOWN &&
		    incident_first_of_rank(in, rank, incident_want_trouble) == NULL &&
		    p->first_coll->ts.sec - rs->last.sec >= SILENT_BEFORE) {
			char *w;

			stamp_format_span(incident_span_ns(&rs->last, &p->first_coll->ts), span, sizeof span);
			if (have_start && stamp_cmp(&rs->last, &start) < 0) {
				/* the timeout says when its collective began */
				char began[40];

				stamp_format(&start, 0, began, sizeof began);
				w = xasprintf("went silent at %s, before the collective the others "
				    "timed out in began (%s, by the timeout's own count), and "
				    "reported nothing after", when, began);
				suspect_add(in, p, rank, 3.5, w);
			} else {
				/* (what came first: a wait, or another fallout) */
				w = xasprintf("went silent at %s, %s before %s, and reported nothing "
				    "after", when, span, p->first_coll->sig->fallout == FALLOUT_WAIT ?
				    "the first timeout report" : "the first report of trouble");
				suspect_add(in, p, rank, 3, w);
			}
			free(w);
		} else if ((other = others_last(&latest, rank)) != NULL &&
		    other->sec - rs->last.sec >= SILENT_MIN && (double)(other->sec -
		    rs->last.sec) >= 0.1 * (double)(in->last.sec - in->first.sec) &&
		    incident_first_of_rank(in, rank, incident_want_trouble) == NULL) {
			char *w;

			stamp_format_span(incident_span_ns(&rs->last, other), span, sizeof span);
			w = xasprintf("silent since %s while other ranks wrote for %s more",
			    when, span);
			suspect_add(in, p, rank, 1.5, w);
			free(w);
		}
		if (steppers >= 2 && rs->step >= 0 && rs->step < maxstep) {
			char *a = incident_fmt_num(rs->step), *b = incident_fmt_num(maxstep);
			char *w = xasprintf("last training step %s, others reached %s", a, b);

			suspect_add(in, p, rank, 1, w);
			free(w);
			free(a);
			free(b);
		}
	}
	/* In a failure the initiating rank is the first suspect. */
	if (an->initiating != NULL && an->initiating->rank >= 0)
		for (i = 0; i < p->nco; i++)
			if (p->co[i]->rank >= 0 && p->co[i]->rank < in->top) {
				struct buf w = BUF_INIT;
				size_t at = score_at(p, p->co[i]->rank);

				buf_adds(&w, i == 0 ? "failed first: " : "failed at about the same time: ");
				describe_event(&w, an, p->co[i]);
				p->score[at] += 100 - (double)i;
				why_add(p, at, w.s, 1);
				buf_release(&w);
			}
	/* An initiating line with no rank, and one rank alone with trouble
	 * in these logs (most often the same process's exception for the
	 * error that line names): the likeliest owner of the line. A rank
	 * whose trouble is a wait was alive to time out: not the owner. */
	if (an->initiating != NULL && an->initiating->rank < 0) {
		const struct event *only = NULL, *fe;

		for (i = 0; i < in->rank_n; i++)
			if ((fe = incident_first_of_rank(in, in->rank_v[i]->rank,
			    not_waiting)) != NULL) {
				if (only != NULL) {
					only = NULL;
					break;
				}
				only = fe;
			}
		if (only != NULL) {
			struct buf w = BUF_INIT;

			buf_adds(&w, "the one rank with trouble in these logs, so the likeliest to have "
			    "written the first failure's line, which names no rank: ");
			describe_event(&w, an, only);
			suspect_add(in, p, only->rank, 1.5, w.s);
			buf_release(&w);
		}
	}
	an->suspects = xcalloc(p->nscore + 1, sizeof *an->suspects);
	an->reasons = xcalloc(p->nscore + 1, sizeof *an->reasons);
	for (j = 0, last = 0; j < p->nscore; j++) {
		const struct rankstate *rs = incident_rank(in, p->srank[j]);

		if (p->score[j] >= 1.5 || (p->score[j] > 0 && (rs == NULL || rs->lines == 0))) {
			/* many ranks share one reason (a condition blaming all
			 * but one): one copy */
			if (an->nreasons == 0 || !why_same(p, j, last))
				an->reasons[an->nreasons++] = why_join(p, j);
			last = j;
			an->suspects[an->nsuspects].rank = p->srank[j];
			an->suspects[an->nsuspects].score = p->score[j];
			an->suspects[an->nsuspects].reason = an->reasons[an->nreasons - 1];
			an->nsuspects++;
		}
	}
	sort_in = in;
	qsort(an->suspects, an->nsuspects, sizeof *an->suspects, suspect_cmp);
}
