/* verdict.c: what the run adds up to. verdict_decide says failure (some
 * rank hit an error of its own), hang (fallout with no failure behind it,
 * or a strong suspect) or healthy; verdict_roles gives each rank its role;
 * verdict_explain sets the confidence and writes the one sentence that says
 * what the answer rests on. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

static void
clock_note(const struct incident *in, struct buf *b, int ra, int rb_)
{
	const char *ha = incident_host(in, ra), *hb = incident_host(in, rb_);

	if (ha != NULL && hb != NULL && strcmp(ha, hb) == 0)
		return;
	if (ha != NULL && hb != NULL)
		buf_printf(b, "; the order compares the clocks of %s and %s", ha, hb);
	else
		buf_adds(b, "; if these ranks ran on different hosts, the order rests on their clocks agreeing");
}

static void
assign_role(struct rankstate *rs, enum rank_role role, const char *why)
{
	rs->role = role;
	rs->why = why;
}

void
verdict_decide(struct incident *in, struct analysis *an, struct passes *p)
{
	int strong = an->nsuspects > 0 && an->suspects[0].score >= 3;

	(void)in;
	if (an->initiating != NULL)
		an->verdict = VERDICT_FAILURE;
	else if (p->coll_errors && !p->coll_waits)
		/* ranks died of an error that began elsewhere (a peer gone,
		 * the network) and none waited: the run failed, of a cause
		 * these logs do not show */
		an->verdict = VERDICT_FAILURE;
	else if (p->coll_teardown_only && !strong) {
		/* the launcher or the scheduler ended the ranks and none had
		 * failed or waited: a worker's failure these logs do not
		 * show, or a stop from outside (a closed terminal, a time
		 * limit, a cancel); no hang the logs show */
		an->verdict = VERDICT_FAILURE;
		an->stopped = 1;
	} else if (p->first_coll != NULL || strong)
		an->verdict = VERDICT_HANG;
	else
		an->verdict = VERDICT_HEALTHY;
}

void
verdict_roles(struct incident *in, struct analysis *an, struct passes *p)
{
	size_t i, j, before = in->rank_n;
	uint32_t *co_at;
	int r;

	/* Rows for ranks the logs do not show: those scored (named by
	 * another rank's line, wrote nothing), and the ranks of the world
	 * below the highest shown, when they are at most as many as the
	 * ranks shown (more would be a table the input does not justify). */
	for (j = 0; j < p->nscore; j++)
		if (p->score[j] > 0)
			(void)incident_rank_slot(in, p->srank[j]);
	if (an->world > 0 && (size_t)in->top <= 2 * in->rank_n + 64)
		for (r = 0; r < in->top && r < an->world; r++)
			(void)incident_rank_slot(in, r);
	if (in->rank_n != before) {
		incident_sort(in);
		incident_index(in);	/* the events by rank, for the new order */
	}
	/* each rank's place among the initiating ones (co_at[k] - 1), found
	 * once, not by a look through them all for each rank */
	co_at = xcalloc(in->rank_n + 1, sizeof *co_at);
	for (j = p->nco; j-- > 0; ) {
		const struct rankstate *rs = p->co[j]->rank >= 0 ?
		    incident_rank(in, p->co[j]->rank) : NULL;

		if (rs != NULL)
			co_at[rs->k] = (uint32_t)j + 1;	/* (the first, as the look found) */
	}
	for (i = 0; i < in->rank_n; i++) {
		struct rankstate *rs = in->rank_v[i];
		const struct event *fe;
		int rank = rs->rank;
		double score = passes_score(p, rank);

		rs->first_event = fe = incident_first_of_rank(in, rank, incident_want_trouble);
		if (rs->lines == 0 && fe == NULL) {
			if (score > 0)
				assign_role(rs, RR_SUSPECT, "named by another rank's line; "
				    "no output of its own in these logs");
			else
				assign_role(rs, RR_SILENT, "no output at all");
			continue;
		}
		assign_role(rs, RR_HEALTHY, NULL);
		if (co_at[i] != 0) {
			const struct event *co = p->co[co_at[i] - 1];

			assign_role(rs, RR_INITIATING, co == an->initiating ?
			    an->init_entry->title : co->sig->entry->title);
			continue;
		}
		if (score >= 2 && an->initiating == NULL && an->verdict != VERDICT_HEALTHY) {
			assign_role(rs, RR_SUSPECT, NULL);
			continue;
		}
		if (incident_first_of_rank(in, rank, incident_want_collateral) != NULL ||
		    incident_first_of_rank(in, rank, incident_want_initiating) != NULL) {
			assign_role(rs, RR_COLLATERAL, fe ? fe->sig->entry->title : NULL);
			continue;
		}
		if (passes_blamed(p, rank))
			assign_role(rs, RR_SUSPECT, NULL);
		else if (score >= 1.5)
			assign_role(rs, an->verdict == VERDICT_HEALTHY ? RR_SILENT : RR_SUSPECT, NULL);
	}
	free(co_at);
	for (i = 0; i < in->rank_n; i++)
		an->role_count[in->rank_v[i]->role]++;
}

/* Did any rank report a training step? */
static int
any_step(const struct incident *in)
{
	size_t i;

	for (i = 0; i < in->rank_n; i++)
		if (in->rank_v[i]->step >= 0)
			return 1;
	return 0;
}

/* Lower confidence to at most c, and say why. */
static void
cap(struct analysis *an, const char *c)
{
	static const char *const order[] = { "low", "medium", "high" };
	int have = 2, want = 2, i;

	for (i = 0; i < 3; i++) {
		if (strcmp(an->confidence, order[i]) == 0)
			have = i;
		if (strcmp(c, order[i]) == 0)
			want = i;
	}
	if (want < have)
		an->confidence = order[want];
}

/* Could the other rank's clock reverse the order of a and b? */
static int64_t
skew_allowance(const struct incident *in, int ra, int rb)
{
	const char *ha = incident_host(in, ra), *hb = incident_host(in, rb);

	if (ha != NULL && hb != NULL && strcmp(ha, hb) == 0)
		return 0;
	return (int64_t)SKEW_MATTERS * 1000000000LL;
}

/* Fallout, or a line of last resort not taken: a process died. */
static int
want_fallout(const struct event *ev)
{
	return ev->sig->role == ROLE_COLLATERAL || ev->sig->last_resort;
}

/* The first trouble of another rank that could compete with the
 * initiating event: another rank's own failure, or fallout that came
 * before it (fallout after it is its consequence; symptoms are hints). */
static const struct event *
first_rival(const struct incident *in, const struct event *init, int initiating)
{
	const struct event *next = NULL;
	size_t i;

	for (i = 0; i < in->rank_n; i++) {
		const struct event *fe;

		if (in->rank_v[i]->rank == init->rank)
			continue;
		fe = incident_first_of_rank(in, in->rank_v[i]->rank, initiating ?
		    incident_want_own_failure : incident_want_collateral);
		if (fe != NULL && (next == NULL || event_cmp_time(fe, next) < 0))
			next = fe;	/* timed first, then in stream order */
	}
	return next;
}

/* Do a and b show two processes: other hosts (interned by the incident:
 * one pointer a name), or other pids (NCCL's and UCX's "host:pid:..." on
 * one host)? */
static int
other_process(const struct event *a, const struct event *b)
{
	if (a->host != NULL && b->host != NULL && a->host != b->host)
		return 1;
	return a->pid >= 0 && b->pid >= 0 && a->pid != b->pid;
}

/* Own failures or fallout on lines with no rank, of two processes or
 * more (hosts, or pids on one host), before the initiating line in its
 * file (nccl-tests' failure line of each host, then mpirun's "Process
 * name: [[J,1],R]"; two workers' SIGBUS, then torchrun's "failed
 * (exitcode: -7) local_rank: 0"): the logs do not say which came first,
 * as with another rank's fallout before it. The first of them, or NULL. */
static const struct event *
unranked_processes_before(const struct incident *in, const struct event *init)
{
	const struct event *first = NULL;
	int two = 0;
	size_t i;

	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->rank >= 0 || (ev->host == NULL && ev->pid < 0) ||
		    event_file(ev) != event_file(init) || ev->lineno >= init->lineno ||
		    !(incident_want_own_failure(ev) || incident_want_collateral(ev)) ||
		    ev->sig->last_resort)
			continue;
		if (first != NULL && other_process(first, ev))
			two = 1;
		if (first == NULL || ev->lineno < first->lineno)
			first = ev;
	}
	return two ? first : NULL;
}

/* The failure's sentence: who, what, when, and what the order rests on. */
static void
explain_failure(struct incident *in, struct analysis *an, struct passes *p,
    struct buf *reason)
{
	const struct event *init = an->initiating, *rival, *coll;
	struct stamp ilo = init->ts, ihi;
	int ihi_ok = order_upper_bound(init, &ihi), timed = (init->ts.flags & STAMP_TIME) != 0;
	char when[40], span[40];
	size_t i;

	an->confidence = "high";
	if (init->rank >= 0)
		buf_printf(reason, "rank %d failed first", init->rank);
	else
		buf_adds(reason, "a line with no rank shows the first failure");
	if (timed) {
		stamp_format(&init->ts, 0, when, sizeof when);
		buf_printf(reason, " at %s", when);
	}
	buf_printf(reason, " (%s)", an->init_entry->title);

	rival = first_rival(in, init, 1);
	coll = first_rival(in, init, 0);
	if (init->rank < 0) {
		cap(an, "low");
		buf_printf(reason, "; %s:%lu carries no rank", event_file(init), (unsigned long)init->lineno);
		if (init->host != NULL)
			buf_printf(reason, ", only its host, %s", init->host);
	} else if (p->nco > 1) {
		int untimed = 0;

		for (i = 0; i < p->nco; i++)
			untimed |= !(p->co[i]->ts.flags & STAMP_TIME);
		cap(an, "medium");
		if (untimed)
			buf_printf(reason, "; %zu ranks failed and their lines cannot be ordered "
			    "(ranks ", p->nco);
		else
			buf_printf(reason, "; %zu ranks failed within %d s of each other (ranks ",
			    p->nco, TIE_WINDOW);
		for (i = 0; i < p->nco && i < 6; i++)
			buf_printf(reason, "%s%d", i ? ", " : "", p->co[i]->rank);
		buf_adds(reason, p->nco > 6 ? ", ...)" : ")");
		if (init->flags & LINE_ROOT_CAUSE)
			buf_adds(reason, "; torchrun's summary calls it the root cause, but torchrun "
			    "orders failures to the second and breaks ties by the lowest local "
			    "rank, so that is no evidence of which came first");
		else if (!untimed)
			clock_note(in, reason, p->co[0]->rank, p->co[1]->rank);
	} else if (!timed) {
		/* No time: the order rests on what else the logs show. */
		if (rival != NULL) {
			cap(an, "low");
			buf_printf(reason, "; its line has no time, and rank %d also failed (%s)",
			    rival->rank, rival->sig->entry->title);
		} else if (coll != NULL)
			buf_adds(reason, "; its line has no time, but the other ranks only "
			    "reported fallout, which cannot come before its cause");
		else
			buf_adds(reason, "; no other rank reported a problem");
	} else {
		struct stamp chi;
		const struct event *first_other = rival;
		/* A launcher's line tells when it noticed, after the fact. */
		int noticed = (init->ts.flags & STAMP_REPORTED) || init->via == VIA_LAUNCHER;

		if (coll != NULL && (first_other == NULL || event_cmp_time(coll, first_other) < 0))
			first_other = coll;
		if (!noticed && coll != NULL && order_upper_bound(coll, &chi) &&
		    stamp_cmp(&chi, &ilo) < 0) {
			/* fallout certainly before it: the cause may be elsewhere */
			stamp_format_span(incident_span_ns(&chi, &ilo), span, sizeof span);
			cap(an, "low");
			buf_printf(reason, ", but rank %d reported %s %s earlier; "
			    "the cause may have left no error line", coll->rank,
			    coll->sig->entry->title, span);
		} else if (rival != NULL && (!ihi_ok || !(rival->ts.flags & STAMP_TIME) ||
		    stamp_cmp(&ihi, &rival->ts) >= 0)) {
			cap(an, "medium");
			buf_printf(reason, "; rank %d also failed (%s) at about the same time and "
			    "the logs cannot order the two", rival->rank, rival->sig->entry->title);
		} else if (first_other != NULL && (first_other->ts.flags & STAMP_TIME) && ihi_ok &&
		    stamp_cmp(&ihi, &first_other->ts) < 0) {
			stamp_format_span(incident_span_ns(&ilo, &first_other->ts), span, sizeof span);
			buf_printf(reason, ", %s before any other rank reported a problem", span);
			/* Another rank's own failure close behind: clocks decide. */
			if (rival != NULL && incident_span_ns(&ihi, &rival->ts) <
			    skew_allowance(in, init->rank, rival->rank)) {
				cap(an, "medium");
				clock_note(in, reason, init->rank, rival->rank);
			}
		} else if (first_other == NULL)
			buf_adds(reason, "; no other rank reported a problem");
	}
	if (init->rank >= 0 && (rival = unranked_processes_before(in, init)) != NULL) {
		cap(an, "low");
		buf_printf(reason, "; but lines with no rank, of two processes or more, %s "
		    "before its line (%s:%lu", rival->sig->role == ROLE_COLLATERAL ?
		    "reported fallout" : "failed", event_file(rival), (unsigned long)rival->lineno);
		if (rival->host != NULL)
			buf_printf(reason, ", host %s", rival->host);
		if (rival->pid >= 0)
			buf_printf(reason, ", pid %ld", (long)rival->pid);
		buf_printf(reason, ": %s): which process failed first is not known",
		    rival->sig->entry->title);
	}
	/* What the rank rests on. */
	if (init->rank >= 0 && init->via == VIA_EXIT) {
		cap(an, "medium");
		buf_printf(reason, "; its line names no rank: it is taken as rank %d's, the one "
		    "worker the launcher reports failed%s", init->rank, init->assumed ?
		    " (its local rank taken as global because the logs show one node)" : "");
	} else if (init->rank >= 0 && init->assumed && init->via != VIA_RECORD) {
		cap(an, "medium");
		buf_adds(reason, "; the rank rests on a launcher line's local rank, taken as "
		    "global because the logs show one node");
	} else if (init->rank >= 0 && init->via == VIA_LAUNCHER) {
		cap(an, "medium");
		buf_adds(reason, "; the rank rests on a launcher line that names it");
	} else if (init->rank >= 0 && init->via == VIA_TASK) {
		cap(an, "medium");
		buf_adds(reason, "; the rank is the launcher's task number: the logs show no "
		    "launcher of its own on each node, so each task is taken as one rank");
	} else if (init->rank >= 0 && init->via == VIA_RECORD) {
		/* lent by a line up to a record away: an inference */
		cap(an, "medium");
		buf_adds(reason, init->assumed ? "; the rank comes from another line of the same "
		    "record, a launcher's local rank taken as global because the logs show one node" :
		    "; the rank comes from another line of the same record");
	} else if (init->rank >= 0 && init->via == VIA_PROCESS) {
		cap(an, "medium");
		buf_adds(reason, "; the rank is the one its process's NCCL init line names, its rank "
		    "in the communicator of the whole world");
	} else if (init->rank >= 0 && init->via == VIA_CONNECTION) {
		cap(an, "medium");
		buf_adds(reason, "; the rank is the one its process's NCCL connection lines name "
		    "(\"Channel N : R -> P\"), its rank in a communicator whose size no line "
		    "says: the global rank if that is the whole world");
	} else if (init->rank >= 0 && init->via == VIA_PID) {
		cap(an, "medium");
		buf_adds(reason, "; its line names no rank, only its process (its pid), whose "
		    "rank another line gives (a ranked line of the process, or mpirun's \"process "
		    "rank N with PID P\")");
	} else if (init->rank >= 0 && init->via == VIA_GPU)
		buf_adds(reason, "; the rank is the one whose GPU the kernel line names");
	else if (init->rank_from == RANK_GROUP) {
		cap(an, "medium");
		buf_adds(reason, "; the rank is the one its process group prints, which is "
		    "the global rank only in the default group");
	}
	if (signature_is_lone(init->sig)) {
		cap(an, "low");
		buf_adds(reason, "; it is the first line its logger marked as an error, which "
		    "no entry reads, and no other line says that a rank failed or waited: "
		    "what it means, and whether the run stopped there, is not known");
	} else if (init->sig->last_resort) {
		cap(an, "low");
		buf_adds(reason, "; no other line says that a rank failed, and no rank timed out "
		    "before it");
		if (an->init_entry == init->sig->entry)
			buf_adds(reason, ": what made it die is not in these logs");
	}
	if (init->sig->only_at_end) {
		cap(an, "medium");
		buf_adds(reason, "; its log ends there, cut short: what would say what "
		    "failed is missing or incomplete");
	}
	if (init->ts.flags & STAMP_REPORTED) {
		cap(an, "medium");
		buf_adds(reason, " (time as torchrun's summary reports it, to the second)");
	} else if (init->ts.flags & STAMP_INHERITED) {
		if (event_upper(init)->flags & STAMP_TIME) {
			char up[40];

			stamp_format(event_upper(init), 0, up, sizeof up);
			buf_printf(reason, " (its line has no time of its own: written by %s)", up);
		} else
			buf_adds(reason, " (its line has no time of its own; this is the time "
			    "of the line before it)");
	}
	if (an->role_count[RR_COLLATERAL] > 0)
		buf_printf(reason, "; %zu other rank%s only reported the fallout",
		    an->role_count[RR_COLLATERAL],
		    an->role_count[RR_COLLATERAL] == 1 ? "" : "s");
}

void
verdict_explain(struct incident *in, struct analysis *an, struct passes *p)
{
	struct buf reason = BUF_INIT;
	size_t i, active = incident_active_ranks(in);
	char when[40];

	if (an->verdict == VERDICT_FAILURE && an->initiating != NULL)
		explain_failure(in, an, p, &reason);
	else if (an->verdict != VERDICT_HEALTHY) {
		/* the fallout that says what happened, not the generic line
		 * every NCCL error ends with */
		const struct event *fc = p->first_told != NULL ? p->first_told : p->first_coll;

		buf_adds(&reason, an->verdict == VERDICT_HANG ? "no rank reported an error of its own" :
		    an->stopped ? "their launcher or the scheduler ended the ranks, and no rank "
		    "failed or waited before: a worker failed without a line in these logs, or "
		    "the run was stopped from outside (a closed terminal, a time limit, a cancel; "
		    "a run that hung is stopped this way too, so look at its last progress)" :
		    "ranks failed of fallout only (a peer gone, the network, a launcher's word that "
		    "a worker failed), none of a cause of its own: the cause is on a rank or host "
		    "these logs do not show, or in the network");
		if (fc != NULL) {
			/* a line of no weight is no entry's evidence, and a wait
			 * the log ends in is one only by where it stands: their
			 * own words */
			const char *what = (fc->sig->weight > 0 && !fc->sig->only_at_end) ||
			    fc->sig->message == NULL ? fc->sig->entry->title : fc->sig->message;
			size_t nr = 0;

			for (i = 0; i < in->rank_n; i++)
				if (incident_first_of_rank(in, in->rank_v[i]->rank, want_fallout))
					nr++;
			if (nr > 0)
				buf_printf(&reason, "; %zu rank%s reported %s", nr,
				    nr == 1 ? "" : "s", what);
			else
				buf_printf(&reason, "; lines that name no rank report %s", what);
			if (fc->ts.flags & STAMP_TIME) {
				stamp_format(&fc->ts, 0, when, sizeof when);
				buf_printf(&reason, " from %s", when);
			} else
				buf_adds(&reason, " (the lines carry no times)");
		}
		if (an->nsuspects > 0) {
			const struct suspect *s = &an->suspects[0];
			size_t n, k;
			char *lead = analysis_lead_suspects(an, &n);

			for (k = 1; k < n && an->suspects[k].reason == s->reason; k++)
				;
			if (n == 1)
				buf_printf(&reason, "; rank %d is the likeliest culprit: %s", s->rank,
				    s->reason);
			else if (k == n)	/* (the same reason for each) */
				buf_printf(&reason, "; %s tie as the likeliest culprits: %s", lead,
				    s->reason);
			else
				buf_printf(&reason, "; %s tie as the likeliest culprits (rank %d: %s)",
				    lead, s->rank, s->reason);
			free(lead);
			if (n > 1)
				an->confidence = "low";
			else
				an->confidence = s->score >= 4 ? "medium" : "low";
		} else {
			an->confidence = "low";
			buf_adds(&reason, "; nothing in the logs points at one rank");
		}
	} else {
		an->confidence = p->first_coll == NULL && an->ndiags == 0 ? "high" : "medium";
		buf_printf(&reason, "no failure or stall found in %lu lines from %zu rank%s",
		    in->lines, active, active == 1 ? "" : "s");
		if (an->ndiags > 0)
			buf_printf(&reason, "; %s is worth a look", an->diags[0].entry->title);
		if (!any_step(in)) {
			/* a paste that stops in the start-up, a log cut short:
			 * no error is not yet a run that works */
			cap(an, "medium");
			buf_adds(&reason, "; but no training step was seen: the logs may end "
			    "before training began, or print their steps in a form rankwatch "
			    "does not read");
		}
		if (in->unread > 0) {
			/* what could not be read is not judged healthy */
			an->confidence = "low";
			buf_printf(&reason, "; but %zu source%s could not be read (%s%s): what "
			    "%s is not judged", in->unread, in->unread == 1 ? "" : "s",
			    in->unread_first != NULL ? in->unread_first : "see the notes",
			    in->unread > 1 ? " and more" : "", in->unread == 1 ? "it holds" :
			    "they hold");
		}
	}
	an->reason = buf_detach(&reason);
}
