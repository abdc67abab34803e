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
assign_role(struct rankstate *rs, enum rank_role role, char *why)
{
	rs->role = role;
	free(rs->why);
	rs->why = why;
}

void
verdict_decide(struct incident *in, struct analysis *an, struct passes *p)
{
	(void)in;
	if (an->initiating != NULL)
		an->verdict = VERDICT_FAILURE;
	else if (p->first_coll != NULL || (an->nsuspects > 0 && an->suspects[0].score >= 3))
		an->verdict = VERDICT_HANG;
	else
		an->verdict = VERDICT_HEALTHY;
}

void
verdict_roles(struct incident *in, struct analysis *an, struct passes *p)
{
	size_t i, j;

	for (i = 0; i < in->nranks; i++) {
		struct rankstate *rs = in->ranks[i];
		const struct event *fe;

		if (rs == NULL)
			rs = incident_rank_slot(in, (int)i);
		rs->first_event = fe = incident_first_of_rank(in, (int)i, incident_want_trouble);
		if (rs->lines == 0) {
			assign_role(rs, RR_SILENT, xstrdup("no output at all"));
			continue;
		}
		assign_role(rs, RR_HEALTHY, NULL);
		for (j = 0; j < p->nco; j++)
			if (p->co[j]->rank == (int)i)
				break;
		if (j < p->nco) {
			assign_role(rs, RR_INITIATING, xstrdup(p->co[j]->sig->entry->title));
			continue;
		}
		if (p->score[i] >= 2 && an->verdict == VERDICT_HANG) {
			assign_role(rs, RR_SUSPECT, NULL);
			continue;
		}
		if (incident_first_of_rank(in, (int)i, incident_want_collateral) != NULL ||
		    incident_first_of_rank(in, (int)i, incident_want_initiating) != NULL) {
			assign_role(rs, RR_COLLATERAL, fe ? xstrdup(fe->sig->entry->title) : NULL);
			continue;
		}
		if (p->blamed[i])
			assign_role(rs, RR_SUSPECT, NULL);
		else if (p->score[i] >= 1.5)
			assign_role(rs, an->verdict == VERDICT_HEALTHY ? RR_SILENT : RR_SUSPECT, NULL);
	}
	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL)
			an->role_count[in->ranks[i]->role]++;
}

void
verdict_explain(struct incident *in, struct analysis *an, struct passes *p)
{
	struct buf reason = BUF_INIT;
	size_t i, active = incident_active_ranks(in);
	char when[40], span[40];

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
		} else if (p->nco > 1) {
			an->confidence = "medium";
			buf_printf(&reason, "; %zu ranks failed within %d s of each other (%s",
			    p->nco, TIE_WINDOW, "ranks ");
			for (i = 0; i < p->nco && i < 6; i++)
				buf_printf(&reason, "%s%d", i ? ", " : "", p->co[i]->rank);
			buf_adds(&reason, p->nco > 6 ? ", ...)" : ")");
			clock_note(in, &reason, p->co[0]->rank, p->co[1]->rank);
		} else if (next != NULL) {
			struct stamp ilo = init->ts, ihi, nhi;
			int ihi_ok = order_upper_bound(init, &ihi), nhi_ok = order_upper_bound(next, &nhi);

			if (nhi_ok && stamp_cmp(&nhi, &ilo) < 0) {
				/* the other rank's trouble certainly came first */
				stamp_format_span(incident_span_ns(&nhi, &ilo), span, sizeof span);
				an->confidence = "low";
				buf_printf(&reason, ", but rank %d reported %s %s earlier; "
				    "the cause may have left no error line", next->rank,
				    next->sig->entry->title, span);
			} else if (ihi_ok && stamp_cmp(&ihi, &next->ts) < 0) {
				int64_t gap = incident_span_ns(&ihi, &next->ts);

				stamp_format_span(incident_span_ns(&ilo, &next->ts), span, sizeof span);
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
		if (p->first_coll != NULL) {
			size_t nr = 0;

			for (i = 0; i < in->nranks; i++)
				if (in->ranks[i] != NULL && incident_first_of_rank(in, (int)i, incident_want_collateral))
					nr++;
			if (nr > 0)
				buf_printf(&reason, "; %zu rank%s reported %s", nr,
				    nr == 1 ? "" : "s", p->first_coll->sig->entry->title);
			else
				buf_printf(&reason, "; lines that name no rank report %s",
				    p->first_coll->sig->entry->title);
			if (p->first_coll->ts.flags & STAMP_TIME) {
				stamp_format(&p->first_coll->ts, 0, when, sizeof when);
				buf_printf(&reason, " from %s", when);
			} else
				buf_adds(&reason, " (the lines carry no times)");
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
		an->confidence = p->first_coll == NULL && an->ndiags == 0 ? "high" : "medium";
		buf_printf(&reason, "no failure or stall found in %lu lines from %zu rank%s",
		    in->lines, active, active == 1 ? "" : "s");
		if (an->ndiags > 0)
			buf_printf(&reason, "; %s is worth a look", an->diags[0].entry->title);
	}
	an->reason = buf_detach(&reason);
}
