/* order.c: which rank failed first. Each rank's first failure is its
 * earliest initiating event (a weightier one within the tie window speaks
 * for it; one cut short by the end of its log only when it has no other
 * and no other rank reports fallout); the initiating event is the
 * earliest of these, and ranks within the tie window of it are reported
 * with it. Lines of last resort (a process aborted, no word why) are
 * candidates only in a run with no other failure and no timeout before
 * them. Collateral events are never candidates, however early or
 * loud. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

/* An initiating event that says what failed: not a record held to the
 * end of its log (a traceback cut before its exception line), nor a line
 * of last resort (a launcher's word that a process aborted). */
static int
want_known(const struct event *ev)
{
	return ev->sig->role == ROLE_INITIATING && !ev->sig->only_at_end &&
	    !ev->sig->last_resort;
}

/* How many ranks reported fallout (a collateral event). */
static size_t
ranks_with_fallout(const struct incident *in)
{
	size_t i, n = 0;

	for (i = 0; i < in->rank_n; i++)
		n += incident_first_of_rank(in, in->rank_v[i]->rank, incident_want_collateral) != NULL;
	return n;
}

/* Fallout that says a rank waited: a timeout (an entry tagged hang or
 * timeout, not its generic lines). */
static int
want_wait(const struct event *ev)
{
	return ev->sig->role == ROLE_COLLATERAL && ev->sig->weight >= 1 &&
	    ev->sig->fallout == FALLOUT_WAIT;
}

/* Fallout that says the launcher ended a rank (SIGTERM, a cancelled
 * step). */
static int
want_teardown(const struct event *ev)
{
	return ev->sig->role == ROLE_COLLATERAL && ev->sig->fallout == FALLOUT_TEARDOWN;
}

/* Fallout that is not the launcher's teardown: a peer gone, a wait. */
static int
want_peer_fallout(const struct event *ev)
{
	return incident_want_collateral(ev) && ev->sig->fallout != FALLOUT_TEARDOWN;
}

/* Was ev written after w, as far as the logs tell? In one file (one
 * rank's stream) by line order; across files by their own times only. */
static int
written_after(const struct event *ev, const struct event *w)
{
	if (event_file(ev) == event_file(w))
		return ev->lineno > w->lineno;
	return (ev->ts.flags & STAMP_TIME) && (w->ts.flags & STAMP_TIME) &&
	    !(ev->ts.flags & STAMP_INHERITED) && stamp_cmp(&w->ts, &ev->ts) < 0;
}

/* The timeouts (or other events: waits_collect's want), to ask of many
 * lines whether one was written before them (written_after, without a
 * look through every event for each): by file, then line; and the two
 * earliest by their own times, of two files. */
struct waits {
	const struct event	**v;
	size_t			  n;
	const struct event	 *timed[2];
};

static int
wait_cmp(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a, *y = *(const struct event *const *)b;
	uintptr_t fx = (uintptr_t)event_file(x), fy = (uintptr_t)event_file(y);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

static void
waits_collect(const struct incident *in, struct waits *w, int (*want)(const struct event *))
{
	size_t i;

	memset(w, 0, sizeof *w);
	w->v = xcalloc(in->nevents + 1, sizeof *w->v);
	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (!want(ev))
			continue;
		w->v[w->n++] = ev;
		if (!(ev->ts.flags & STAMP_TIME))
			continue;
		if (w->timed[0] == NULL || stamp_cmp(&ev->ts, &w->timed[0]->ts) < 0) {
			if (w->timed[0] != NULL && event_file(w->timed[0]) != event_file(ev))
				w->timed[1] = w->timed[0];
			w->timed[0] = ev;
		} else if (event_file(ev) != event_file(w->timed[0]) &&
		    (w->timed[1] == NULL || stamp_cmp(&ev->ts, &w->timed[1]->ts) < 0))
			w->timed[1] = ev;
	}
	qsort(w->v, w->n, sizeof *w->v, wait_cmp);
}

/* The first of w's events in ev's file at line lineno or after it. */
static size_t
waits_from(const struct waits *w, const struct event *ev, uint32_t lineno)
{
	size_t lo = 0, hi = w->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct event *x = w->v[mid];

		if ((uintptr_t)event_file(x) < (uintptr_t)event_file(ev) ||
		    (event_file(x) == event_file(ev) && x->lineno < lineno))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Was ev written after some rank's timeout? */
static int
waits_before(const struct waits *w, const struct event *ev)
{
	size_t lo = waits_from(w, ev, 0), k;

	if (lo < w->n && event_file(w->v[lo]) == event_file(ev) && written_after(ev, w->v[lo]))
		return 1;
	for (k = 0; k < 2; k++)	/* another file's, by the clocks */
		if (w->timed[k] != NULL && event_file(w->timed[k]) != event_file(ev))
			return written_after(ev, w->timed[k]);
	return 0;
}

/* How far after a generic line (weight under 1) the lines of its record
 * that give its reason reach (NCCL's "Last error:", the CANN error text
 * torch_npu puts after its RuntimeError). */
#define DETAIL_SPAN	4	/* lines */

/* Is the wait w one of the lines that give the generic line ev's reason:
 * a few lines after it in its file, of its process as far as the lines
 * tell (rank, host, pid)? torch_npu's "RuntimeError: ... NPU error, error
 * code is 107020", then the CANN lines, then "hccl fftsplus task timeout":
 * the exception reports the timeout. */
static int
reason_is_wait(const struct event *ev, const struct event *w)
{
	/* (a line that names no rank is of the ranked one's process when
	 * both name the same pid: Ray's "(Worker pid=N)" on the exception,
	 * and "[rankR]:" after it on the CANN warning) */
	return ev->sig->weight < 1 && event_file(w) == event_file(ev) &&
	    w->lineno > ev->lineno && w->lineno <= ev->lineno + DETAIL_SPAN &&
	    (w->rank == ev->rank || (ev->rank < 0 && ev->pid >= 0)) &&
	    w->host == ev->host && w->pid == ev->pid;
}

/* What sets a failure line aside as a timeout's consequence: for a
 * rank, being written after its own first timeout (own); with no rank,
 * being generic (weight under 1) and written after any rank's (all);
 * and a generic line whose record goes on to the timeout (its reason). */
struct aside {
	const struct event	*own;
	const struct waits	*all;
};

static int
set_aside(const struct aside *a, const struct event *ev)
{
	size_t k;

	if (a->own != NULL)
		return written_after(ev, a->own) || reason_is_wait(ev, a->own);
	if (a->all == NULL || ev->sig->weight >= 1)
		return 0;
	if (waits_before(a->all, ev))
		return 1;
	for (k = waits_from(a->all, ev, ev->lineno + 1); k < a->all->n &&
	    event_file(a->all->v[k]) == event_file(ev) &&
	    a->all->v[k]->lineno <= ev->lineno + DETAIL_SPAN; k++)
		if (reason_is_wait(ev, a->all->v[k]))
			return 1;
	return 0;
}

/* Do two events read the same line, one with a generic signature (a
 * bare Python exception) and one not? */
static int
same_line_generic(const struct event *a, const struct event *b)
{
	return event_same_line(a, b) && a->sig->generic != b->sig->generic;
}

/* Does ev speak for its rank's failure over best, a few lines or seconds
 * apart? The more specific: on the same line, the one not generic; else
 * the weightier. */
static int
speaks_over(const struct event *ev, const struct event *best)
{
	if (same_line_generic(ev, best))
		return signature_outweighs(ev->sig, best->sig);
	return ev->sig->weight > best->sig->weight;
}

/* Is there fallout (a peer gone, a wait: not the launcher's teardown) of
 * ev's stream a record before ev? Its stream: its rank, in its file; with
 * no rank, its process in its file (or lines that name no process). */
static int
fallout_record_before(const struct incident *in, const struct event *ev)
{
	size_t i, lo, hi;

	incident_rank_events(in, ev->rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *c = in->events[in->byrank[i]];

		if (c->rank == ev->rank && want_peer_fallout(c) &&
		    event_file(c) == event_file(ev) && c->lineno < ev->lineno &&
		    c->lineno + RECORD_SPAN >= ev->lineno &&
		    (ev->rank >= 0 || c->pid == ev->pid))
			return 1;
	}
	return 0;
}

/* A rank's own first failure: its earliest initiating event, unless a
 * weightier (more specific) one follows within the tie window, as when a
 * traceback's generic wrapper line precedes the line that names the CUDA
 * or NCCL error. fallout: how many ranks reported fallout. A record cut
 * short says that its rank failed, not how: it counts only when the rank
 * has no other, and while another rank reports fallout it is as likely
 * the same fallout (every rank's traceback after a timeout, one of them
 * cut by the paste): no candidate; nor when the rank's own fallout (not
 * its launcher's teardown) is a record before it (that fallout's
 * traceback). */
static const struct event *
first_failure_of_rank(const struct incident *in, int rank, size_t fallout)
{
	const struct event *first = incident_first_of_rank(in, rank, want_known), *best;
	struct aside a = { NULL, NULL };
	struct waits w;
	size_t i, lo, hi;
	int aside;

	/* A failure line written after a timeout is the timeout's
	 * consequence (the aborted communicator, the SIGABRT that follows,
	 * state a failed collective left behind): the rank's failures are
	 * those written before its own timeout; with no rank, a generic line
	 * (a crash handler's notice, weight under 1) after any rank's is as
	 * likely that timeout's SIGABRT as anything, where a specific one (a
	 * CUDA error) stays. */
	if (rank >= 0)
		a.own = incident_first_of_rank(in, rank, want_wait);
	else if (first != NULL && first->sig->weight < 1) {
		waits_collect(in, &w, want_wait);
		a.all = &w;
	}
	if ((aside = first != NULL && set_aside(&a, first)) != 0) {
		first = NULL;
		incident_rank_events(in, rank, &lo, &hi);
		for (i = lo; i < hi; i++) {
			const struct event *ev = in->events[in->byrank[i]];

			if (ev->rank == rank && want_known(ev) && !set_aside(&a, ev) &&
			    (first == NULL || event_cmp_time(ev, first) < 0))
				first = ev;
		}
	}
	if (a.all != NULL)
		free(w.v);
	if (aside && first == NULL)
		return NULL;
	if (first == NULL) {
		if ((first = incident_first_of_rank(in, rank, incident_want_own_failure)) == NULL)
			return NULL;
		/* its own fallout (a peer gone, a wait: not its launcher's
		 * teardown) a record before: the cut record is that fallout's
		 * traceback ("Rank 3 ... received errors while waiting for
		 * send/recv from rank 0", then "Traceback (most recent call
		 * last):" and the end; with no rank, a gloo "Timed out
		 * waiting 1800000ms for send", then the traceback) */
		if (first->sig->only_at_end && fallout_record_before(in, first))
			return NULL;
		if (rank >= 0 && incident_first_of_rank(in, rank, incident_want_collateral) != NULL)
			fallout--;
		return fallout > 0 ? NULL : first;
	}
	incident_rank_events(in, rank, &lo, &hi);
	if (first->ts.flags & STAMP_TIME) {
		/* Lines with no time sort last, but one written before it in
		 * the same stream (its file; for lines with no rank, its
		 * process) failed before it: where the clock says nothing,
		 * the line order does. In a stream whose lines name no
		 * process, a generic notice after the fact (weight under 1:
		 * sglang's parent told by a child that it failed) gives way to
		 * a specific failure written before it: that is what the
		 * notice is about. */
		const struct event *early = NULL;

		for (i = lo; i < hi; i++) {
			const struct event *ev = in->events[in->byrank[i]];

			if (ev->rank != rank || !want_known(ev) || (ev->ts.flags & STAMP_TIME) ||
			    event_file(ev) != event_file(first) || ev->lineno >= first->lineno ||
			    (rank < 0 && (ev->pid < 0 || ev->pid != first->pid) &&
			    !(ev->pid < 0 && first->pid < 0 && first->sig->weight < 1 &&
			    ev->sig->weight >= 1)))
				continue;
			if (early == NULL || ev->lineno < early->lineno)
				early = ev;
		}
		if (early != NULL)
			first = early;
	}
	best = first;
	if (!(first->ts.flags & STAMP_TIME)) {
		/* No times: the same record, a few lines on, speaks for it.
		 * Lines with no rank may be other processes' records: there
		 * only a generic wrapper (weight 1 or less) gives way. */
		for (i = lo; i < hi; i++) {
			const struct event *ev = in->events[in->byrank[i]];

			if (ev->rank == rank && incident_want_own_failure(ev) &&
			    event_file(ev) == event_file(first) && ev->lineno >= first->lineno &&
			    ev->lineno <= first->lineno + RECORD_SPAN &&
			    !(ev->ts.flags & STAMP_TIME) &&
			    (rank >= 0 || first->sig->weight <= 1 ||
			    same_line_generic(ev, first)) && speaks_over(ev, best))
				best = ev;
		}
		return best;
	}
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank != rank || !incident_want_own_failure(ev) ||
		    incident_time_quality(ev) != incident_time_quality(first) || !(ev->ts.flags & STAMP_TIME))
			continue;
		if (stamp_cmp(&ev->ts, &first->ts) < 0 ||
		    ev->ts.sec - first->ts.sec > TIE_WINDOW)
			continue;
		if (speaks_over(ev, best) || (!same_line_generic(ev, best) &&
		    ev->sig->weight == best->sig->weight && event_cmp_time(ev, best) < 0))
			best = ev;
	}
	return best;
}

/* The latest an event can have happened: its own time, or for a borrowed
 * time the next own time in its file. 0 when unbounded. */
int
order_upper_bound(const struct event *ev, struct stamp *out)
{
	if (!(ev->ts.flags & STAMP_TIME))
		return 0;
	if (!(ev->ts.flags & STAMP_INHERITED)) {
		*out = ev->ts;
		return 1;
	}
	if (event_upper(ev)->flags & STAMP_TIME) {
		*out = *event_upper(ev);
		return 1;
	}
	return 0;
}

static int
event_time_cmp(const void *a, const void *b)
{
	return event_cmp_time(*(const struct event *const *)a, *(const struct event *const *)b);
}

/* Was w written after ev beyond doubt: by their own clocks, later than
 * they can be confused; with no clocks, in the same stream and past
 * ev's record (the reason of a C++ terminate is on its next line)? */
static int
clearly_after(const struct event *w, const struct event *ev)
{
	if ((w->ts.flags & STAMP_TIME) && (ev->ts.flags & STAMP_TIME) &&
	    !((w->ts.flags | ev->ts.flags) & STAMP_INHERITED))
		return incident_span_ns(&ev->ts, &w->ts) > (int64_t)TIE_WINDOW * 1000000000LL;
	return event_file(w) == event_file(ev) && w->lineno > ev->lineno + RECORD_SPAN;
}

/* Does event k say that a rank waited, in any words (the generic "Some
 * NCCL operations have failed or timed out" too), and not on a line of
 * last resort (a waiting entry reads "exitcode -6" as its end; an error
 * line no entry reads is none: the half of a line cut at a column, which
 * the wait read joined to the next)? A line's events are neighbours in
 * in->events. */
static int
waited(const struct incident *in, size_t k)
{
	const struct event *ev = in->events[k];
	size_t j;

	if (ev->sig->role != ROLE_COLLATERAL || ev->sig->fallout != FALLOUT_WAIT)
		return 0;
	for (j = k > 0 ? k - 1 : 0; j <= k + 1 && j < in->nevents; j++)
		if (in->events[j]->sig->last_resort && !signature_is_lone(in->events[j]->sig) &&
		    event_same_line(in->events[j], ev))
			return 0;
	return 1;
}

/* Was ev's process told to stop just before: a teardown line (a
 * launcher's SIGTERM, a cancelled step) a few lines before it in its
 * file, of its rank or of none (the launcher's)? Then a crash handler's
 * header there is the SIGTERM's. (A teardown after it is the launcher's
 * answer to it: srun ends the step when a task failed.) td: the
 * teardown events, by file and line (wait_cmp). */
#define TEARDOWN_SPAN	4	/* lines */

static int
torn_down(const struct waits *td, const struct event *ev)
{
	size_t k = waits_from(td, ev, ev->lineno > TEARDOWN_SPAN ? ev->lineno - TEARDOWN_SPAN : 0);

	for (; k < td->n && event_file(td->v[k]) == event_file(ev) &&
	    td->v[k]->lineno < ev->lineno; k++)
		if (td->v[k]->rank == ev->rank || td->v[k]->rank < 0)
			return 1;
	return 0;
}

/* A rank's first line of last resort, but for one whose process was
 * told to stop. */
static const struct event *
first_last_resort(const struct incident *in, const struct waits *td, int rank)
{
	const struct event *first = NULL;
	size_t i, lo, hi;

	incident_rank_events(in, rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank == rank && ev->sig->last_resort && !incident_lone_muted(in, ev) &&
		    (first == NULL || event_cmp_time(ev, first) < 0) && !torn_down(td, ev))
			first = ev;
	}
	return first;
}

/* With no other failure in the run, its lines of last resort: the
 * earliest of each rank (of no rank, when no rank has one), into cand,
 * earliest first. None when a rank may have waited before the earliest
 * of them (the watchdog aborts a rank that timed out, and its launcher
 * says only "exitcode -6"), or another rank ended at about its time. */
static size_t
last_resorts(const struct incident *in, const struct event **cand)
{
	const struct event *ev;
	struct waits td;
	size_t i, n = 0;

	waits_collect(in, &td, want_teardown);
	for (i = 0; i < in->rank_n; i++)
		if ((ev = first_last_resort(in, &td, in->rank_v[i]->rank)) != NULL)
			cand[n++] = ev;
	if (n == 0 && (ev = first_last_resort(in, &td, -1)) != NULL)
		cand[n++] = ev;
	free(td.v);
	qsort(cand, n, sizeof *cand, event_time_cmp);
	/* ranks that aborted together aborted for one reason, most often
	 * their watchdogs' common timeout */
	if (n > 1 && !clearly_after(cand[1], cand[0]))
		return 0;
	for (i = 0; i < in->nevents && n > 0; i++)
		if (waited(in, i) && !clearly_after(in->events[i], cand[0]))
			n = 0;
	return n;
}

static void
choose_initiating(struct incident *in, struct analysis *an, struct passes *p)
{
	const struct event **cand = xcalloc(in->rank_n + 1, sizeof *cand);
	size_t n = 0, i, j;
	const struct event *first = NULL;
	size_t fallout = ranks_with_fallout(in);

	for (i = 0; i < in->rank_n; i++) {
		const struct event *ev;

		if ((ev = first_failure_of_rank(in, in->rank_v[i]->rank, fallout)) != NULL)
			cand[n++] = ev;
	}
	p->co = cand;
	p->nco = 0;
	/* An initiating line nobody can attribute still means failure. */
	if (n == 0 && (an->initiating = first_failure_of_rank(in, -1, fallout)) != NULL)
		return;
	if (n == 0 && (n = last_resorts(in, cand)) == 0)
		return;
	/* by time, then place: a total order (no two events have the same
	 * arrival), so any sort gives the same; not an insertion sort, which
	 * took 7 s for 65,536 ranks that all failed, in no order */
	qsort(cand, n, sizeof *cand, event_time_cmp);
	/* Candidates as early as the first, within what clocks can tell. */
	for (i = 1; i < n; i++) {
		/* A launcher's time (when it noticed) and a line with no time
		 * cannot be ordered: they tie. */
		if (incident_time_quality(cand[0]) == 1 && !(cand[i]->ts.flags & STAMP_TIME))
			continue;
		if (!(cand[0]->ts.flags & STAMP_TIME) || !(cand[i]->ts.flags & STAMP_TIME))
			break;
		if (incident_span_ns(&cand[0]->ts, &cand[i]->ts) > (int64_t)TIE_WINDOW * 1000000000LL)
			break;
	}
	p->nco = i;
	first = cand[0];
	for (j = 1; j < i; j++) {
		const struct event *c = cand[j];

		/* A specific failure (higher weight) over a generic one; then,
		 * for want of evidence, the one torchrun calls the root cause
		 * (the reason says that this is a tie-break, not an order). */
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

/* The entry that explains the initiating event: its own, unless its line
 * is a generic one (weight under 1: NCCL's "internal error", its return
 * codes, a cut traceback) and the next lines of its record give the
 * reason, which another entry knows (NCCL 2.19+: "Last error:" and "Net :
 * Call to recv from ... failed : Connection refused" after it), or a line
 * with no rank just before the record does; or unless it is a generic
 * one (a bare exception) and its record's next lines say more; or unless
 * it is a launcher's report of a worker's exit (torchrun's summary row,
 * its agent's line), which says which worker exited, not why: the
 * weightiest failure written before it in its file, with no rank or of
 * its rank (the worker's own words, passed through with no prefix), says
 * why, when weightier, or for a generic report (an exit code), when not
 * generic itself. */

/* Does ev say more than init of why it failed? For a generic init (a
 * bare exception, a launcher's exit code), any specific line of weight 1
 * or more; else a weightier one. */
static int
says_more(const struct event *ev, const struct event *init)
{
	return init->sig->generic ? !ev->sig->generic && ev->sig->weight >= 1 :
	    ev->sig->weight > init->sig->weight;
}

/* The weightiest own failure of rank (-1: none) that says more than the
 * launcher's report init, written before it in its file; else best. */
static const struct event *
report_reason(const struct incident *in, const struct event *init, int rank,
    const struct event *best)
{
	size_t i, lo, hi;

	incident_rank_events(in, rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank != rank || event_file(ev) != event_file(init) ||
		    ev->lineno >= init->lineno || !says_more(ev, init) ||
		    !incident_want_own_failure(ev) || ev->sig->last_resort ||
		    ev->sig->only_at_end || (best != NULL && ev->sig->weight <= best->sig->weight))
			continue;
		best = ev;
	}
	return best;
}

static const struct entry *
explainer(const struct incident *in, const struct event *init)
{
	const struct event *detail = NULL;
	size_t i, lo, hi;

	if ((init->ts.flags & STAMP_REPORTED) || init->via == VIA_LAUNCHER ||
	    init->line_rank_from == RANK_SUMMARY) {
		/* (lines with no rank, and the rank's own: the worker's words
		 * the launcher's report gave its rank to) */
		detail = report_reason(in, init, -1, NULL);
		if (init->rank >= 0)
			detail = report_reason(in, init, init->rank, detail);
		if (detail != NULL)
			return detail->sig->entry;
	}
	if (init->sig->weight >= 1 && !init->sig->generic)
		return init->sig->entry;
	incident_rank_events(in, init->rank, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		/* (a bare exception, a catch-all's reading, gives way to any
		 * specific line of its record: "ResourceExhaustedError: ",
		 * then its message, "Out of memory error on GPU 0 ...") */
		if (ev->rank != init->rank || event_file(ev) != event_file(init) ||
		    ev->lineno <= init->lineno || ev->lineno > init->lineno + DETAIL_SPAN ||
		    ev->sig->entry == init->sig->entry || !says_more(ev, init) ||
		    ev->sig->role == ROLE_CONTEXT || ev->sig->role == ROLE_PROGRESS ||
		    ev->sig->only_at_end)
			continue;
		if (detail == NULL || ev->lineno < detail->lineno)
			detail = ev;
	}
	if (detail != NULL || init->rank < 0 || init->sig->generic)
		return detail != NULL ? detail->sig->entry : init->sig->entry;
	/* Or a line with no rank just before its record, of its file: NCCL's
	 * WARN ("Bootstrap : no socket interface found") and then the rank's
	 * traceback of what it did to the call. */
	incident_rank_events(in, -1, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct event *ev = in->events[in->byrank[i]];

		if (ev->rank >= 0 || event_file(ev) != event_file(init) ||
		    ev->lineno >= init->lineno || ev->lineno + RECORD_SPAN < init->lineno ||
		    ev->sig->entry == init->sig->entry || ev->sig->weight < 1 ||
		    !incident_want_own_failure(ev) || ev->sig->last_resort || ev->sig->only_at_end)
			continue;
		if (detail == NULL || ev->lineno > detail->lineno)
			detail = ev;
	}
	return detail != NULL ? detail->sig->entry : init->sig->entry;
}

void
order_choose(struct incident *in, struct analysis *an, struct passes *p)
{
	const struct event *died = NULL;
	int waited_any = 0, not_teardown = 0;
	size_t i;

	choose_initiating(in, an, p);
	an->init_entry = an->initiating != NULL ? explainer(in, an->initiating) : NULL;
	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->sig->last_resort && an->initiating == NULL && !incident_lone_muted(in, ev) &&
		    (died == NULL || event_cmp_time(ev, died) < 0))
			died = ev;
		/* Fallout with no time is still fallout: a run whose lines
		 * carry no times is judged on its events. */
		if (ev->sig->role != ROLE_COLLATERAL)
			continue;
		waited_any |= ev->sig->fallout == FALLOUT_WAIT;
		not_teardown |= ev->sig->fallout != FALLOUT_TEARDOWN;
		if (p->first_coll == NULL || event_cmp_time(ev, p->first_coll) < 0)
			p->first_coll = ev;
		/* (a generic line of a wait, weight under 1, is none: every
		 * NCCL error ends in "Some NCCL operations have failed or
		 * timed out") */
		if (want_wait(ev))
			p->coll_waits = 1;
		else if (ev->sig->fallout == FALLOUT_ERROR)
			p->coll_errors = 1;
		else if (ev->sig->fallout == FALLOUT_WAIT)
			continue;
		if (ev->sig->weight >= 1 &&
		    (p->first_told == NULL || event_cmp_time(ev, p->first_told) < 0))
			p->first_told = ev;
	}
	/* Lines of last resort not taken (ranks that aborted together, a
	 * wait before them) still say that processes died: fallout of a
	 * cause these logs do not show (a hang's, when a rank waited in
	 * any words), never a healthy run. */
	if (died != NULL) {
		if (p->first_coll == NULL)
			p->first_coll = died;
		if (!waited_any)
			p->coll_errors = 1;
	}
	/* (every collateral line a teardown: no wait, no error among them) */
	p->coll_teardown_only = p->first_coll != NULL && died == NULL && !not_teardown;
}
