/* test_incident.c: who failed first, who is collateral, who is suspect.
 * Real files in a temporary run folder, read by the real engine, with a
 * small rulebook of its own so the reasoning is tested apart from the
 * shipped encyclopedia. */
#include "config.h"

#include "testutil.h"
#include "testrules.h"
#include "testcond.h"

#include "run.h"

static const char *const yaml[] = {
	"id: boom\ntitle: Boom\ncategory: memory\nseverity: high\nsummary: s\n"
	"signatures:\n"
	"  - {id: boom, role: initiating, pattern: 'BOOM happened here'}\n",
	"id: generic\ntitle: Generic error\ncategory: process\nseverity: medium\nsummary: s\n"
	"signatures:\n"
	"  - {id: err, role: initiating, weight: 2, pattern: 'SomeError: (?<what>.*)'}\n",
	"id: timeout\ntitle: Timeout\ncategory: communication\nseverity: high\nsummary: s\n"
	"tags: [timeout]\n"
	"signatures:\n"
	"  - {id: to, role: collateral, pattern: 'collective timed out: seq=(?<seq>\\d+)(?: numel=(?<numel>\\d+))?'}\n"
	"  - {id: prog, role: collateral, pattern: 'last enqueued work: (?<enqueued>\\d+)'}\n"
	"conditions:\n"
	"  - {id: missing, text: did not time out, from: [to], test: missing, weight: 2}\n"
	"  - {id: behind, text: behind in the sequence, from: [prog], fact: enqueued, test: behind, weight: 2}\n",
	"id: shape\ntitle: Shape\ncategory: model\nseverity: high\nsummary: s\n"
	"signatures:\n"
	"  - {id: ctx, role: context, pattern: 'running version (?<version>\\S+)'}\n"
	"conditions:\n"
	"  - {id: numel, text: sizes differ, from: [timeout/to], fact: numel, group_by: seq, test: differs, required: true, weight: 5}\n"
	"  - {id: ver, text: versions differ, from: [ctx], fact: version, test: differs, weight: 1}\n",
	"id: slow\ntitle: Slow\ncategory: performance\nseverity: low\nsummary: s\n"
	"signatures:\n"
	"  - {id: step, role: progress, pattern: 'step (?<step>\\d+) took (?<ms>\\d+) ms'}\n"
	"conditions:\n"
	"  - {id: straggler, text: one rank is slow, from: [step], fact: ms, test: outlier, factor: 1.5}\n",
	"id: note\ntitle: Note\ncategory: process\nseverity: low\nsummary: s\n"
	"signatures:\n"
	"  - {id: hello, role: context, pattern: 'hello from (?<where>\\S+)'}\n"
	"  - {id: bye, role: collateral, pattern: 'goodbye now'}\n",
	"id: unlisted\ntitle: Unlisted\ncategory: process\nseverity: medium\nsummary: s\n"
	"signatures:\n"
	"  - {id: any, role: initiating, weight: 0.2, level: error, fallback: true,\n"
	"     last_resort: true, pattern: '[a-z]{3}'}\n",
};

static struct rulebook *rb;
static char *rdir;

static int
setup(void **state)
{
	size_t i;
	char name[32];

	(void)state;
	rdir = tu_tmpdir();
	for (i = 0; i < sizeof yaml / sizeof *yaml; i++) {
		snprintf(name, sizeof name, "r%zu.yaml", i);
		TU_WRITE(rdir, name, yaml[i]);
	}
	rb = tu_rulebook(rdir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rulebook_free(rb);
	tu_rmdir(rdir);
	return 0;
}


static const struct analysis *
analyse(struct run **rp, const char *dir)
{
	const char *paths[1] = { dir };
	char *why = NULL;

	*rp = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(*rp);
	run_scan(*rp, 1);
	return incident_analyse((*rp)->incident);
}

static void
train(const char *dir, int ranks, int minutes)
{
	int r, m;
	char t[64];

	for (r = 0; r < ranks; r++)
		for (m = 0; m < minutes; m++) {
			snprintf(t, sizeof t, "step %d took %d ms", m, 100 + r);
			tu_say(dir, r, m, r, t);
		}
}

static void
test_initiating_beats_loud_and_early_collateral(void **state)
{
	char *dir = tu_tmpdir(), t[96];
	struct run *r;
	const struct analysis *an;
	int k;

	(void)state;
	train(dir, 8, 3);
	tu_say(dir, 5, 3, 10, "BOOM happened here");
	for (k = 0; k < 8; k++)
		if (k != 5) {
			snprintf(t, sizeof t, "collective timed out: seq=9 numel=10");
			tu_say(dir, k, 13, 10 + k, t);
			tu_say(dir, k, 13, 10 + k, t);	/* loud: printed twice */
		}
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 5);
	assert_string_equal(an->confidence, "high");
	assert_non_null(strstr(an->reason, "10 min 0 s before any other rank"));
	assert_string_equal(an->diags[0].entry->id, "boom");
	assert_int_equal(an->suspects[0].rank, 5);
	assert_int_equal(incident_rank(r->incident, 5)->role, RR_INITIATING);
	for (k = 0; k < 8; k++)
		if (k != 5)
			assert_int_equal(incident_rank(r->incident, k)->role, RR_COLLATERAL);
	run_free(r);
	tu_rmdir(dir);
}

static void
test_collateral_first_lowers_confidence(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;

	(void)state;
	train(dir, 4, 2);
	tu_say(dir, 0, 5, 0, "collective timed out: seq=3 numel=1");
	tu_say(dir, 2, 5, 30, "SomeError: late");
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 2);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "earlier"));
	run_free(r);
	tu_rmdir(dir);
}

static void
test_tie_prefers_specific_failure(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;

	(void)state;
	train(dir, 4, 2);
	tu_say(dir, 1, 4, 0, "SomeError: generic first");
	tu_say(dir, 3, 4, 1, "BOOM happened here");
	an = analyse(&r, dir);
	assert_int_equal(an->initiating->rank, 3);	/* 1 s later, but specific */
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "2 ranks failed within 2 s"));
	assert_int_equal(incident_rank(r->incident, 1)->role, RR_INITIATING);
	run_free(r);
	tu_rmdir(dir);
}

static void
test_hang_silent_rank_is_suspect(void **state)
{
	char *dir = tu_tmpdir(), t[96];
	struct run *r;
	const struct analysis *an;
	int k;

	(void)state;
	train(dir, 6, 3);
	for (k = 0; k < 6; k++)
		if (k != 4) {
			tu_say(dir, k, 40, k, "collective timed out: seq=77 numel=5");
			snprintf(t, sizeof t, "last enqueued work: %d", 77);
			tu_say(dir, k, 40, k, t);
		}
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_true(an->nsuspects >= 1);
	assert_int_equal(an->suspects[0].rank, 4);
	assert_non_null(strstr(an->suspects[0].reason, "did not time out"));
	assert_non_null(strstr(an->suspects[0].reason, "went silent at 10:02:04"));
	assert_int_equal(incident_rank(r->incident, 4)->role, RR_SUSPECT);
	assert_string_equal(an->diags[0].entry->id, "timeout");
	run_free(r);
	tu_rmdir(dir);
}

static void
test_differs_behind_and_outlier(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;
	int k;
	char t[96];

	(void)state;
	for (k = 0; k < 5; k++) {
		snprintf(t, sizeof t, "step 1 took %d ms", k == 2 ? 400 : 100);
		tu_say(dir, k, 0, 0, t);
		tu_say(dir, k, 0, 1, k < 3 ? "running version 2.1" : "running version 2.2");
		snprintf(t, sizeof t, "collective timed out: seq=12 numel=%d", k == 1 ? 99 : 100);
		tu_say(dir, k, 30, 0, t);
		snprintf(t, sizeof t, "last enqueued work: %d", k == 3 ? 11 : 12);
		tu_say(dir, k, 30, 1, t);
	}
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "shape");
	assert_int_equal(an->suspects[0].rank, 1);	/* required, weight 5 */
	for (k = 0; k < (int)an->nconds; k++) {
		const struct condresult *c = &an->conds[k];

		if (strcmp(c->cond->id, "numel") == 0) {
			assert_true(c->met);
			assert_int_equal(c->nblamed, 1);
			assert_int_equal(c->blamed[0], 1);
			assert_non_null(strstr(c->detail, "99 on rank 1"));
		} else if (strcmp(c->cond->id, "behind") == 0) {
			assert_true(c->met);
			assert_int_equal(c->nblamed, 1);
			assert_int_equal(c->blamed[0], 3);
		} else if (strcmp(c->cond->id, "ver") == 0) {
			assert_true(c->met);
			assert_int_equal(c->nblamed, 2);	/* 2.2 is the rarer value */
		} else if (strcmp(c->cond->id, "straggler") == 0) {
			assert_true(c->met);
			assert_int_equal(c->blamed[0], 2);
		} else if (strcmp(c->cond->id, "missing") == 0)
			assert_false(c->met);
	}
	run_free(r);
	tu_rmdir(dir);
}

/* behind reads each rank's highest value a group by rank when that is
 * smaller than tuples (every rank reports), and as tuples when few ranks
 * of many do: the same answer, the same words. */
static void
test_behind_both_ways(void **state)
{
	const char *detail[2] = { NULL, NULL };
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		char *dir = tu_tmpdir();
		struct run *r;
		const struct analysis *an;
		char t[96];
		size_t i;
		int k, seen = 0;

		for (k = 0; k < 40; k++) {
			tu_say(dir, k, 0, 0, "step 1 took 100 ms");
			if (pass == 1 || k == 5 || k == 9) {
				snprintf(t, sizeof t, "last enqueued work: %d", k == 5 ? 11 : 12);
				tu_say(dir, k, 30, 1, t);
			}
		}
		an = analyse(&r, dir);
		for (i = 0; i < an->nconds; i++) {
			const struct condresult *c = &an->conds[i];

			if (strcmp(c->cond->id, "behind") != 0)
				continue;
			seen = 1;
			assert_true(c->met);
			assert_int_equal(c->nblamed, 1);
			assert_int_equal(c->blamed[0], 5);
			detail[pass] = strdup(c->detail);
		}
		assert_true(seen);
		run_free(r);
		tu_rmdir(dir);
	}
	assert_string_equal(detail[0], "enqueued 11 on rank 5, others up to 12");
	assert_string_equal(detail[0], detail[1]);
	free((char *)detail[0]);
	free((char *)detail[1]);
}

/* A condition over more ranks than the sort's quick way needs (64
 * tuples): each rank's latest value of a group is its value, in arrival
 * order however the ranks' lines come. */
static void
test_differs_over_many_ranks(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;
	const struct condresult *c;
	int k;
	char t[96];

	(void)state;
	for (k = 0; k < 150; k++) {
		/* ranks 100 and up print a line of another group first, so
		 * that the groups' lines interleave as they arrive */
		if (k >= 100)
			tu_say(dir, k, 29, 0, "collective timed out: seq=13 numel=8");
		/* rank 137's latest value differs, rank 120's first one only */
		snprintf(t, sizeof t, "collective timed out: seq=12 numel=%d", k == 120 ? 99 : 100);
		tu_say(dir, k, 30, 0, t);
		snprintf(t, sizeof t, "collective timed out: seq=12 numel=%d", k == 137 ? 99 : 100);
		tu_say(dir, k, 31, 0, t);
	}
	an = analyse(&r, dir);
	c = tu_cond(an, "numel");
	assert_true(c->met);
	assert_int_equal(c->nblamed, 1);
	assert_int_equal(c->blamed[0], 137);
	assert_non_null(strstr(c->detail, "99 on rank 137"));
	run_free(r);
	tu_rmdir(dir);
}

/* differs reads each rank's latest value of a group by rank, or, with
 * more groups than that holds (16), from tuples: the same answer. 30
 * ranks time out at seq 2 (rank 7 on another size, rank 8 only at
 * first), ten at seq 1 as well; then each of 20 ranks also at a seq of
 * its own. */
static void
test_differs_both_ways(void **state)
{
	char *dir[2] = { tu_tmpdir(), tu_tmpdir() }, t[96];
	struct run *r;
	const struct analysis *an;
	const struct condresult *c;
	int k, w;

	(void)state;
	for (w = 0; w < 2; w++) {
		for (k = 0; k < 30; k++) {
			if (k < 10)
				tu_say(dir[w], k, 29, 0, "collective timed out: seq=1 numel=5");
			snprintf(t, sizeof t, "collective timed out: seq=2 numel=%d",
			    k == 7 || k == 8 ? 99 : 100);
			tu_say(dir[w], k, 30, 0, t);
			if (k == 8)
				tu_say(dir[w], k, 31, 0, "collective timed out: seq=2 numel=100");
			if (w == 1 && k >= 10) {
				snprintf(t, sizeof t, "collective timed out: seq=%d numel=1", 500 + k);
				tu_say(dir[w], k, 28, 0, t);
			}
		}
		an = analyse(&r, dir[w]);
		c = tu_cond(an, "numel");
		assert_true(c->met);
		assert_int_equal(c->nblamed, 1);
		assert_int_equal(c->blamed[0], 7);
		assert_string_equal(c->detail, "numel 100 on 29 ranks, 99 on rank 7 (same seq 2)");
		run_free(r);
		tu_rmdir(dir[w]);
	}
}

/* An outlier against the median of many ranks' means (each rank's one
 * step here): 101 ranks at 1000 to 1100 ms in a shuffled order, and one
 * at 5000: the median is the 52nd smallest of the 102, 1051. */
static void
test_outlier_median(void **state)
{
	char *dir = tu_tmpdir(), t[96];
	struct run *r;
	const struct analysis *an;
	const struct condresult *c;
	int k;

	(void)state;
	for (k = 0; k < 102; k++) {
		snprintf(t, sizeof t, "step 1 took %d ms", k == 101 ? 5000 : 1000 + (k * 37) % 101);
		tu_say(dir, k, 0, 0, t);
	}
	an = analyse(&r, dir);
	c = tu_cond(an, "straggler");
	assert_true(c->met);
	assert_int_equal(c->nblamed, 1);
	assert_int_equal(c->blamed[0], 101);
	assert_string_equal(c->detail, "ms 5000 on rank 101, median 1051");
	run_free(r);
	tu_rmdir(dir);
}

/* No diagnosis of entry id. */
static void
no_diagnosis(const struct analysis *an, const char *id)
{
	size_t i;

	for (i = 0; i < an->ndiags; i++)
		assert_string_not_equal(an->diags[i].entry->id, id);
}

static void
test_healthy_and_required_condition(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;

	(void)state;
	train(dir, 3, 5);
	tu_say(dir, 0, 5, 0, "running version 2.1");
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	assert_string_equal(an->confidence, "high");
	no_diagnosis(an, "shape");	/* context only */
	run_free(r);
	tu_rmdir(dir);
}

/* A line its logger marked as an error, which no other signature reads,
 * is a failure of a cause not known where nothing else says a rank failed
 * or waited, and nothing where something does. */
static void
test_lone_error(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;

	(void)state;
	train(dir, 3, 5);
	/* a warning and an info line are no errors */
	TU_APPEND(dir, "rank1.log", "W0302 10:05:00.000000  4711 t.cc:1] segment slow\n"
	    "I0302 10:05:01.000000  4711 t.cc:1] segment retried\n");
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	run_free(r);
	TU_APPEND(dir, "rank1.log", "E0302 10:05:02.000000  4711 t.cc:1] segment lost\n");
	TU_APPEND(dir, "rank2.log", "E0302 10:05:09.000000  4712 t.cc:1] segment lost\n");
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->fullid, "unlisted/any");
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "marked as an error"));
	run_free(r);
	/* an error-level line that a signature reads is that signature's */
	TU_APPEND(dir, "rank0.log", "E0302 10:05:01.000000  4710 t.cc:1] BOOM happened here\n");
	an = analyse(&r, dir);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->fullid, "boom/boom");
	no_diagnosis(an, "unlisted");
	run_free(r);
	tu_rmdir(dir);

	/* beside a wait, it says nothing: the run is a hang */
	dir = tu_tmpdir();
	train(dir, 3, 5);
	TU_APPEND(dir, "rank1.log", "E0302 10:05:02.000000  4711 t.cc:1] segment lost\n");
	tu_say(dir, 0, 40, 0, "collective timed out: seq=9");
	tu_say(dir, 2, 40, 0, "collective timed out: seq=9");
	an = analyse(&r, dir);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	no_diagnosis(an, "unlisted");
	run_free(r);
	tu_rmdir(dir);
}

static void
test_incremental_equals_batch(void **state)
{
	char *a = tu_tmpdir(), *b = tu_tmpdir();
	const char *pa[1] = { a }, *pb[1] = { b };
	struct run *ra, *rb_;
	char *why = NULL, *sa, *sb;
	int k;

	(void)state;
	train(a, 4, 2);
	train(b, 4, 2);
	ra = run_new(rb, pa, 1, NULL, &why);
	run_scan(ra, 0);
	incident_analyse(ra->incident);
	for (k = 0; k < 4; k++) {
		tu_say(a, k, 20, k, k == 2 ? "BOOM happened here" : "collective timed out: seq=1 numel=1");
		tu_say(b, k, 20, k, k == 2 ? "BOOM happened here" : "collective timed out: seq=1 numel=1");
	}
	run_scan(ra, 1);
	rb_ = run_new(rb, pb, 1, NULL, &why);
	run_scan(rb_, 1);
	assert_int_equal(incident_analyse(ra->incident)->initiating->rank, 2);
	assert_int_equal(incident_analyse(rb_->incident)->initiating->rank, 2);
	assert_string_equal(incident_analyse(ra->incident)->reason,
	    incident_analyse(rb_->incident)->reason);
	assert_int_equal(ra->incident->lines, rb_->incident->lines);
	assert_int_equal(ra->incident->nevents, rb_->incident->nevents);
	sa = incident_ranks_with_role(ra->incident, RR_COLLATERAL);
	sb = incident_ranks_with_role(rb_->incident, RR_COLLATERAL);
	assert_string_equal(sa, "0-1,3");
	assert_string_equal(sa, sb);
	free(sa);
	free(sb);
	run_free(ra);
	run_free(rb_);
	tu_rmdir(a);
	tu_rmdir(b);
}

/* What the incident keeps of a run of many ranks: a step line no pass
 * reads one by one is counted (its entry still names every rank, its
 * evidence is the earliest), a context line a condition compares is kept
 * per rank, and a line said again is counted once. */
static void
test_kept_events(void **state)
{
	char *dir = tu_tmpdir(), t[96];
	struct run *r;
	const struct analysis *an;
	const struct event *first;
	const char *detail;
	size_t i, kept_step = 0, kept_hello = 0, kept_to = 0, kept_ctx = 0;
	int k;

	(void)state;
	train(dir, 64, 20);
	for (k = 0; k < 64; k++) {
		tu_say(dir, k, 20, 0, "hello from here");
		tu_say(dir, k, 20, 1, "running version 2.1");
		snprintf(t, sizeof t, "collective timed out: seq=9 numel=10");
		tu_say(dir, k, 30, k % 7, t);
		tu_say(dir, k, 30, k % 7, t);	/* quoted again */
		tu_say(dir, k, 31, 0, t);	/* and again, later */
	}
	tu_say(dir, 0, 32, 0, "goodbye now");
	an = analyse(&r, dir);
	for (i = 0; i < r->incident->nevents; i++) {
		const char *id = r->incident->events[i]->sig->id;

		kept_step += strcmp(id, "step") == 0;
		kept_hello += strcmp(id, "hello") == 0;
		kept_to += strcmp(id, "to") == 0;
		kept_ctx += strcmp(id, "ctx") == 0;
	}
	assert_int_equal(kept_step, 1);
	assert_int_equal(kept_hello, 1);
	/* the "ver" condition compares them: the earliest is kept, for the
	 * evidence, and every rank's as a row that shares its facts */
	assert_int_equal(kept_ctx, 1);
	for (i = 0, k = 0; i < r->incident->rows.n; i++)
		k += strcmp(r->incident->rows.v[i].ex->sig->id, "ctx") == 0;
	assert_int_equal(k, 64);
	assert_int_equal(r->incident->rows.nex, 1);
	assert_int_equal(kept_to, 64);
	for (i = 0, k = 0; i < an->ndiags; i++)
		if (strcmp(an->diags[i].entry->id, "note") == 0) {
			/* its context line, on every rank, only counted */
			assert_int_equal(an->diags[i].ranks, 64);
			assert_int_equal(an->diags[i].ranks_collateral, 1);
			k = 1;
		}
	assert_true(k);
	assert_true(incident_signal(r->incident, rulebook_entry(rb, "slow"), "step", &first,
	    &detail));
	assert_int_equal(first->rank, 0);
	assert_int_equal(first->lineno, 1);
	assert_int_equal(incident_rank(r->incident, 63)->slots[0].count, 20);
	assert_int_equal(incident_rank(r->incident, 63)->step, 19);
	assert_int_equal(an->verdict, VERDICT_HANG);
	run_free(r);
	tu_rmdir(dir);
}

/* A line said again is only counted when it repeats the newest kept one:
 * a rank that went back to its first value has that as its latest. */
static void
test_repeat_keeps_latest(void **state)
{
	char *dir = tu_tmpdir();
	struct run *r;
	const struct analysis *an;
	size_t i;
	int k;

	(void)state;
	for (k = 0; k < 4; k++)
		tu_say(dir, k, 0, 0, "running version 2.1");
	tu_say(dir, 3, 0, 1, "running version 2.2");
	tu_say(dir, 3, 0, 2, "running version 2.1");
	an = analyse(&r, dir);
	for (i = 0; i < an->nconds; i++)
		if (strcmp(an->conds[i].cond->id, "ver") == 0)
			assert_false(an->conds[i].met);
	run_free(r);
	tu_rmdir(dir);
}

/* A line with no time of its own borrows the one before it; its event
 * keeps its upper bound and, as its rank's first failure, its text. */
static void
test_borrowed_time_keeps_text(void **state)
{
	char *dir = tu_tmpdir(), buf[EVENT_TEXT_MAX + 1];
	struct run *r;
	const struct analysis *an;
	const char *text;

	(void)state;
	tu_say(dir, 0, 0, 0, "step 1 took 100 ms");
	TU_APPEND(dir, "rank0.log", "BOOM happened here\n");
	tu_say(dir, 0, 0, 5, "step 2 took 100 ms");
	an = analyse(&r, dir);
	assert_non_null(an->initiating);
	assert_true(an->initiating->kept);
	assert_true(an->initiating->ts.flags & STAMP_INHERITED);
	assert_true(event_upper(an->initiating)->flags & STAMP_TIME);
	assert_int_equal(event_upper(an->initiating)->sec - an->initiating->ts.sec, 5);
	text = event_text(an->initiating, buf);
	assert_non_null(text);
	assert_string_equal(text, "BOOM happened here");
	run_free(r);
	tu_rmdir(dir);
}

/* Nine ranks' files of a line each, lines[rank]; then what the incident
 * kept of each rank's "err" line reads back as that line, compacted but
 * for the ranks in plain (a bit each), under so many skeletons. */
static void
kept_texts_read_back(const char *const *lines, unsigned plain, size_t skeletons)
{
	char *dir = tu_tmpdir(), name[32], buf[EVENT_TEXT_MAX + 1];
	struct run *r;
	size_t i, k, seen = 0;

	for (k = 0; k < 9; k++) {
		snprintf(name, sizeof name, "rank%zu.log", k);
		TU_WRITE(dir, name, lines[k]);
		TU_APPEND(dir, name, "\n");
	}
	(void)analyse(&r, dir);
	for (i = 0; i < r->incident->nevents; i++) {
		const struct event *ev = r->incident->events[i];

		if (strcmp(ev->sig->id, "err") != 0)
			continue;
		assert_true(ev->rank >= 0 && ev->rank < 9);
		assert_int_equal(ev->kept, plain >> ev->rank & 1 ? 1 : 2);
		assert_string_equal(event_text(ev, buf), lines[ev->rank]);
		seen++;
	}
	assert_int_equal(seen, 9);
	assert_int_equal(r->incident->skeletons.n, skeletons);
	run_free(r);
	tu_rmdir(dir);
}

/* The first failure line each rank keeps is stored as a skeleton the
 * ranks share and its numbers, and reads back the same: numbers of other
 * widths, an address, a line with no number at all, one with the byte
 * the skeleton marks its numbers with (kept as it is), the line's rank
 * in its words (a marker, in the first line's words too) next to near
 * misses (the same digits and more, leading zeros), and one with the
 * byte that marks the rank (kept as it is). */
static void
test_kept_texts_compact(void **state)
{
	static const char *const lines[] = {
		"2024-12-18 10:00:00,000 SomeError: rank 0 at 0x55d20ef lost 10 of 4096 after 3.0s",
		"2024-12-18 10:00:01,000 SomeError: rank 1 at 0x55d21ef lost 110 of 4096 after 3.1s",
		"2024-12-18 10:00:02,000 SomeError: rank 2 at 0x55d22ef lost 2110 of 4096 after 3.25s",
		"2024-12-18 10:00:03,000 SomeError: rank 3 at 0x55d23ef lost 31110 of 4096 after 13.5s",
		"2024-12-18 10:00:04,000 SomeError: rank 4 \001 lost 4 of 4096 after 3.4s",
		"SomeError: the device vanished without a trace, again and again",
		"2024-12-18 10:00:06,000 SomeError: rank 6 [rank6] 0x6f6 lost 66 of 4096 after 6.06s",
		"2024-12-18 10:00:07,000 SomeError: [Rank 7] x7 7x 17 70 707 7.7 07 of 4096",
		"2024-12-18 10:00:08,000 SomeError: rank 8 \002 lost 8 of 4096 after 3.4s",
	};

	(void)state;
	kept_texts_read_back(lines, 1u << 4 | 1u << 8, 4);
}

/* A kept line's words as the first line's, in runs (a byte for up to 16
 * of them) between words of its own: the same line (30 words alike: two
 * runs), one differing at the start, at the 16th, at the 17th, at the
 * end, every other one, none alike; each reads back as it was. */
static void
test_kept_texts_runs(void **state)
{
	static const char *const differ[] = {
		"", "", "a", "p", "q", "", "~", "ace", "",
	};
	char line[9][EVENT_TEXT_MAX];
	const char *lines[9];
	size_t k, w;

	(void)state;
	for (k = 0; k < 9; k++) {
		size_t n = (size_t)snprintf(line[k], sizeof line[k], "SomeError: rank %zu", k);

		/* 30 numbered words; word w differs when differ[k] names it
		 * ('a' + w), or every other one (k 5), or all (k 8) */
		for (w = 0; w < 30; w++) {
			int own = k == 8 || (k == 5 && w % 2 == 1) ||
			    strchr(differ[k], (int)('a' + w)) != NULL;

			n += (size_t)snprintf(line[k] + n, sizeof line[k] - n, " %c%zu",
			    own ? 'y' : 'x', own ? 900 + w + k : 100 + w);
		}
		assert_true(n < EVENT_TEXT_MAX);
		lines[k] = line[k];
	}
	kept_texts_read_back(lines, 0, 1);
}

/* A kept event with the facts of its signature's first event, in the
 * same order, keeps only the values that differ from that event's
 * (event_compact), and reads back as its own: by id, by place, compared,
 * hashed and copied. One with other facts (no numel) keeps its own. Its
 * text's numbers that are a fact's value are that value, once: the text
 * reads back too. */
static void
test_facts_shared(void **state)
{
	static const char *const vals[][2] = {
		{ "200016", "26214400" }, { "200016", "26214400" }, { "200016", "512" },
		{ "200017", "26214400" }, { "200016", "26214400" }, { "200016", NULL },
	};
	char *dir = tu_tmpdir(), name[32], line[160], buf[EVENT_TEXT_MAX + 1];
	struct run *r;
	const struct event *by[6] = { NULL };
	size_t i, k, seen = 0, shared = 0;
	int seq, numel, id;

	(void)state;
	for (k = 0; k < sizeof vals / sizeof *vals; k++) {
		snprintf(name, sizeof name, "rank%zu.log", k);
		snprintf(line, sizeof line, "[rank%zu]: collective timed out: seq=%s%s%s\n",
		    k, vals[k][0], vals[k][1] ? " numel=" : "", vals[k][1] ? vals[k][1] : "");
		TU_WRITE(dir, name, line);
	}
	(void)analyse(&r, dir);
	seq = rulebook_find_fact(rb, "seq");
	numel = rulebook_find_fact(rb, "numel");
	for (i = 0; i < r->incident->nevents; i++) {
		const struct event *ev = r->incident->events[i];
		struct event *copy;

		if (strcmp(ev->sig->id, "to") != 0)
			continue;
		k = (size_t)ev->rank;
		assert_true(k < sizeof vals / sizeof *vals);
		assert_string_equal(event_fact(ev, seq), vals[k][0]);
		if (vals[k][1] != NULL) {
			assert_string_equal(event_fact(ev, numel), vals[k][1]);
			assert_string_equal(event_fact_at(ev, 1, &id), vals[k][1]);
			assert_int_equal(id, numel);
		} else
			assert_null(event_fact(ev, numel));
		assert_string_equal(event_fact_at(ev, 0, &id), vals[k][0]);
		assert_int_equal(id, seq);
		snprintf(line, sizeof line, "[rank%zu]: collective timed out: seq=%s%s%s",
		    k, vals[k][0], vals[k][1] ? " numel=" : "", vals[k][1] ? vals[k][1] : "");
		assert_string_equal(event_text(ev, buf), line);
		/* shared when its facts are the first's (rank 0's too: its
		 * facts are the exemplar's, a copy), even with a value of its
		 * own (rank 2's numel, rank 3's seq) */
		assert_int_equal(ev->shared, vals[k][1] != NULL);
		shared += ev->shared;
		copy = event_facts_copy(ev);
		assert_int_equal(copy->shared, 0);
		assert_true(event_same_facts(copy, ev));
		assert_true(event_facts_hash(copy) == event_facts_hash(ev));
		if (vals[k][1] != NULL)
			assert_string_equal(event_fact(copy, numel), vals[k][1]);
		event_free(copy);
		by[k] = ev;
		seen++;
	}
	assert_int_equal(seen, 6);
	assert_int_equal(shared, 5);
	/* the same facts as rank 0's, told apart from 2's, 3's and 5's */
	assert_true(event_same_facts(by[1], by[0]) && event_same_facts(by[4], by[1]));
	assert_false(event_same_facts(by[2], by[0]) || event_same_facts(by[3], by[1]));
	assert_false(event_same_facts(by[5], by[0]) || event_same_facts(by[0], by[5]));
	assert_true(event_facts_hash(by[4]) == event_facts_hash(by[0]));
	assert_true(event_facts_hash(by[2]) != event_facts_hash(by[0]));
	run_free(r);
	tu_rmdir(dir);
}

/* The events a reader makes are its batch's (an arena, reused for the
 * next batch): the incident keeps copies of its own. A file of 600
 * timeouts, more than a block of the arena, on each of two ranks: what
 * the incident kept of them reads as the lines said, after every later
 * batch has reused the arena. */
static void
test_events_outlive_arena(void **state)
{
	char *dir = tu_tmpdir(), line[96];
	struct buf b = BUF_INIT;
	struct run *r;
	size_t i, k, n = 0;
	int seq, numel;

	(void)state;
	for (k = 0; k < 2; k++) {
		buf_clear(&b);
		for (i = 1; i <= 600; i++)
			buf_printf(&b, "[rank%zu]: collective timed out: seq=%zu numel=%zu\n", k,
			    i, 1000 * k + i);
		snprintf(line, sizeof line, "rank%zu.log", k);
		free(tu_write(dir, line, b.s, b.len, 0));
	}
	(void)analyse(&r, dir);
	seq = rulebook_find_fact(rb, "seq");
	numel = rulebook_find_fact(rb, "numel");
	for (i = 0; i < r->incident->nevents; i++) {
		const struct event *ev = r->incident->events[i];
		char want[32];
		long s;

		if (strcmp(ev->sig->id, "to") != 0)
			continue;
		assert_int_equal(ev->home, EVENT_POOL);
		s = atol(event_fact(ev, seq));
		assert_true(s >= 1 && s <= 600);
		snprintf(want, sizeof want, "%ld", 1000 * (long)ev->rank + s);
		assert_string_equal(event_fact(ev, numel), want);
		n++;
	}
	/* the first few of each rank and the newest (INCIDENT_KEEP) */
	assert_true(n >= 4);
	for (k = 0; k < 2; k++) {
		const struct rankstate *rs = incident_rank(r->incident, (int)k);

		assert_non_null(rs);
		assert_int_equal(rs->slots[0].count, 600);
	}
	buf_release(&b);
	run_free(r);
	tu_rmdir(dir);
}

static void
test_ranks_compress(void **state)
{
	int v[] = { 0, 1, 2, 3, 5, 7, 8, 10 };
	char *s;

	(void)state;
	s = ranks_compress(v, 8);
	assert_string_equal(s, "0-3,5,7-8,10");
	free(s);
	s = ranks_compress(v, 0);
	assert_string_equal(s, "");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_initiating_beats_loud_and_early_collateral),
		cmocka_unit_test(test_collateral_first_lowers_confidence),
		cmocka_unit_test(test_tie_prefers_specific_failure),
		cmocka_unit_test(test_hang_silent_rank_is_suspect),
		cmocka_unit_test(test_differs_behind_and_outlier),
		cmocka_unit_test(test_behind_both_ways),
		cmocka_unit_test(test_differs_both_ways),
		cmocka_unit_test(test_outlier_median),
		cmocka_unit_test(test_differs_over_many_ranks),
		cmocka_unit_test(test_healthy_and_required_condition),
		cmocka_unit_test(test_incremental_equals_batch),
		cmocka_unit_test(test_kept_events),
		cmocka_unit_test(test_repeat_keeps_latest),
		cmocka_unit_test(test_borrowed_time_keeps_text),
		cmocka_unit_test(test_kept_texts_compact),
		cmocka_unit_test(test_kept_texts_runs),
		cmocka_unit_test(test_facts_shared),
		cmocka_unit_test(test_events_outlive_arena),
		cmocka_unit_test(test_ranks_compress),
		cmocka_unit_test(test_lone_error),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
