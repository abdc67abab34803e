/* diagnose.c: which encyclopedia entries explain the run. An entry's
 * evidence is the weight of each of its signatures that matched (once; a
 * record cut short only as the initiating event; a line the weightier
 * signature of another entry also matched, not), of its met conditions,
 * and 4 for the entry that explains the initiating event (its own, unless
 * cut short, or the reason the next lines of a generic one give); an
 * entry with only fallout counts half; score = 1 - exp(-evidence / 4). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

static int
diag_cmp(const void *a, const void *b)
{
	const struct diagnosis *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->entry->id, y->entry->id);
}

/* A record cut short by the end of its log (a traceback without its
 * exception line) says only that something failed, and a line of last
 * resort only that a process died: evidence for an entry when it is the
 * initiating event, and then only. (A wait the log ends in is fallout:
 * evidence as such.) A catch-all for a cut record (fallback and
 * only_at_end: the watchdog's C++ frames the log ends in) stands in for
 * the line the paste lost: evidence only for an entry with none other
 * (told: its entry has another event). */
static int
cut_aside(const struct analysis *an, const struct event *ev, int told)
{
	if (ev->sig->fallback && ev->sig->only_at_end && ev->sig->role != ROLE_INITIATING && told)
		return 1;
	return ((ev->sig->only_at_end && ev->sig->role == ROLE_INITIATING) ||
	    ev->sig->last_resort) && ev != an->initiating;
}

/* Two signatures of one role on one line ("RuntimeError: CUDA error: an
 * illegal memory access", a bare exception and a CUDA fault): the one
 * not generic, else the weightier, speaks for it, and the other entry
 * gets no evidence from it, unless the other is the initiating event (the
 * one that names the rank: "Exception: process 3 terminated with signal
 * SIGKILL"). A line's events arrive one after the other: its neighbours. */
static int
outweighed(const struct incident *in, const struct analysis *an, size_t k)
{
	const struct event *ev = in->events[k];
	size_t j;

	if (ev == an->initiating)
		return 0;
	for (j = k > 0 ? k - 1 : 0; j <= k + 1 && j < in->nevents; j++) {
		const struct event *o = in->events[j];

		if (j != k && event_same_line(o, ev) &&
		    o->sig->role == ev->sig->role && o->sig->entry != ev->sig->entry &&
		    signature_outweighs(o->sig, ev->sig) && !o->sig->only_at_end)
			return 1;
	}
	return 0;
}

void
diagnose_entries(struct incident *in, struct analysis *an)
{
	const struct rulebook *rb = in->rb;
	size_t i, j, k, nr = in->rank_n + 1;
	const struct event **first = xcalloc(rb->nsigs + 1, sizeof *first);
	size_t *entry_of = xcalloc(rb->nsigs + 1, sizeof *entry_of);
	/* the entries some rank's events or slots are of, each a row of rr */
	size_t *row_of = xcalloc(rb->nentries + 1, sizeof *row_of), nrows = 0;
	unsigned char *rr;	/* row (entry) x rank (k): role bits */
	/* the entries with evidence other than a cut record's catch-all
	 * (a context line is none) */
	unsigned char *told = xcalloc(rb->nentries + 1, 1);
	const struct entry *why = an->init_entry;

	for (i = 0; i < rb->nentries; i++)
		for (j = 0; j < rb->entries[i]->nsigs; j++)
			entry_of[rb->entries[i]->sigs[j].index] = i;
	/* One pass over the events: each signature's first event, and the
	 * entries of ranked ones (row_of: 1 until numbered) */
	for (k = 0; k < in->nevents; k++) {
		const struct signature *sig = in->events[k]->sig;

		if ((!sig->fallback || !sig->only_at_end) && sig->role != ROLE_CONTEXT &&
		    sig->role != ROLE_PROGRESS)
			told[entry_of[sig->index]] = 1;
	}
	for (k = 0; k < in->nevents; k++) {
		const struct event *ev = in->events[k];
		size_t si = ev->sig->index;

		if (cut_aside(an, ev, told[entry_of[si]]) || outweighed(in, an, k))
			continue;
		if (first[si] == NULL || event_cmp_time(ev, first[si]) < 0)
			first[si] = ev;
		if (ev->rank >= 0)
			row_of[entry_of[si]] = 1;
	}
	for (k = 0; k < in->rank_n; k++)
		for (j = 0; j < in->rank_v[k]->nslots; j++)
			row_of[entry_of[in->rank_v[k]->slots[j].sig]] = 1;
	for (i = 0; i < rb->nentries; i++)
		row_of[i] = row_of[i] ? ++nrows : 0;
	/* which ranks each entry's events came from, by role: a row for
	 * each entry a rank matched, not for every entry of the rulebook */
	rr = xcalloc(nrows * nr + 1, 1);
	for (k = 0; k < in->nevents; k++) {
		const struct event *ev = in->events[k];
		const struct rankstate *rs = ev->rank >= 0 ? incident_rank(in, ev->rank) : NULL;

		if (rs != NULL && !cut_aside(an, ev, told[entry_of[ev->sig->index]]) &&
		    !outweighed(in, an, k))
			rr[(row_of[entry_of[ev->sig->index]] - 1) * nr + rs->k] |=
			    (unsigned char)(1 << ev->sig->role);
	}
	/* the ranks of the signatures the incident only counts: their slots */
	for (k = 0; k < in->rank_n; k++) {
		const struct rankstate *rs = in->rank_v[k];

		for (j = 0; j < rs->nslots; j++) {
			const struct signature *s = rb->sigs[rs->slots[j].sig];

			if (incident_summarised(in, s))
				rr[(row_of[entry_of[s->index]] - 1) * nr + rs->k] |=
				    (unsigned char)(1 << s->role);
		}
	}
	an->diags = xcalloc(rb->nentries + 1, sizeof *an->diags);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];
		struct diagnosis d;
		int strong = 0, unmet_required = 0, any = 0, own_failure = 0;
		const unsigned char *er = row_of[i] ? rr + (row_of[i] - 1) * nr : NULL;

		memset(&d, 0, sizeof d);
		d.entry = e;
		d.evidence_events = xcalloc(e->nsigs + 1, sizeof *d.evidence_events);
		d.conds = xcalloc(e->nconds + 1, sizeof *d.conds);
		for (j = 0; j < e->nsigs; j++) {
			const struct signature *s = &e->sigs[j];

			if (first[s->index] == NULL)
				continue;
			d.evidence_events[d.nevidence++] = first[s->index];
			/* With no initiating event every failure line was set
			 * aside by order.c (an error a rank wrote after its own
			 * timeout, a record cut beside fallout): fallout, then,
			 * not a cause, and weighed as fallout is. */
			d.evidence += s->role == ROLE_INITIATING && an->initiating == NULL &&
			    s->weight > 1 ? 1 : s->weight;
			if (s->role == ROLE_SYMPTOM ||
			    (s->role == ROLE_INITIATING && an->initiating != NULL))
				strong = 1;
			if ((s->role == ROLE_INITIATING && an->initiating != NULL) || s->defines)
				own_failure = 1;
			/* (a line of no weight, a launcher's word that a
			 * worker failed, makes no diagnosis) */
			if (s->role != ROLE_CONTEXT && s->role != ROLE_PROGRESS && s->weight > 0)
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
			    (r->nblamed > 0 && an->initiating == NULL))
				strong = 1;
		}
		if (why == e) {
			d.owns_initiating = 1;
			/* (a cut record's entry is a guess at what failed; an
			 * error no entry reads is the lead, not what failed: an
			 * entry whose signs the run showed comes before it) */
			if (!an->initiating->sig->only_at_end && !signature_is_lone(an->initiating->sig))
				d.evidence += 4;
		}
		for (k = 0; er != NULL && k < in->rank_n; k++)
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
	free(told);
	free(row_of);
	free(first);
	free(entry_of);
	qsort(an->diags, an->ndiags, sizeof *an->diags, diag_cmp);
}
