/* test_timeline.c: the rank timeline laid out into cells, no terminal. */
#include "config.h"

#include "testutil.h"

#include "report.h"
#include "run.h"
#include "timeline.h"

static const char rule[] =
    "id: t\ntitle: T\ncategory: memory\nseverity: high\nsummary: s\n"
    "signatures:\n"
    "  - {id: boom, role: initiating, pattern: 'BOOM happened here'}\n"
    "  - {id: to, role: collateral, pattern: 'timed out waiting here'}\n";

/* The rule above, from a file in rdir. */
static struct rulebook *
load_rule(const char *rdir, struct notes *ns)
{
	struct rulebook *rb = rulebook_new();

	notes_init(ns);
	TU_WRITE(rdir, "t.yaml", rule);
	rulebook_load_dir(rb, rdir, ns);
	rulebook_finish(rb, ns);
	return rb;
}

static void
test_rows(void **state)
{
	char *rdir = tu_tmpdir(), *dir = tu_tmpdir(), *why = NULL;
	const char *paths[1] = { dir };
	struct notes ns;
	struct rulebook *rb = load_rule(rdir, &ns);
	struct run *r;
	struct timeline_view v;
	enum cell c[60];
	int m, col;

	(void)state;
	/* rank 0 logs every minute 0-9 then times out at 19;
	 * rank 1 logs minutes 0-4, fails at 5 and writes nothing more */
	for (m = 0; m < 10; m++)
		tu_say(dir, 0, m, 0, "step");
	tu_say(dir, 0, 19, 0, "timed out waiting here");
	for (m = 0; m < 5; m++)
		tu_say(dir, 1, m, 0, "step");
	tu_say(dir, 1, 5, 0, "BOOM happened here");
	r = run_new(rb, paths, 1, NULL, &why);
	run_scan(r, 1);
	incident_analyse(r->incident);

	timeline_fit(r->incident, 40, &v);
	assert_int_equal(v.cols, 40);
	assert_int_equal(v.span, 19 * 60 + 1);
	assert_int_equal(timeline_col(&v, v.t0), 0);
	assert_int_equal(timeline_col(&v, v.t0 - 1), -1);
	assert_int_equal(timeline_col(&v, v.t0 + v.span), 40);

	timeline_row(r->incident, 1, &v, c);
	col = timeline_col(&v, v.t0 + 5 * 60);
	assert_int_equal(c[col], CELL_INITIATING);
	assert_int_equal(c[39], CELL_NONE);		/* after its last line */
	assert_true(c[0] >= CELL_LOW && c[0] <= CELL_FULL);
	assert_int_equal(c[col - 1], CELL_QUIET);	/* between two minutes */

	timeline_row(r->incident, 0, &v, c);
	assert_int_equal(c[39], CELL_COLLATERAL);	/* the timeout, at the end */
	assert_int_equal(c[timeline_col(&v, v.t0 + 15 * 60)], CELL_QUIET);	/* the hang */

	/* zooming in keeps the time under the cursor */
	{
		int64_t at = timeline_time(&v, 20);

		timeline_zoom(r->incident, &v, 20, 0.5);
		assert_true(timeline_time(&v, 20) - at <= 1 && at - timeline_time(&v, 20) <= 1);
		assert_true(v.span < 19 * 60);
	}
	/* a rank that does not exist is all blank */
	timeline_row(r->incident, 7, &v, c);
	assert_int_equal(c[0], CELL_NONE);
	run_free(r);
	rulebook_free(rb);
	notes_release(&ns);
	tu_rmdir(rdir);
	tu_rmdir(dir);
}

/* A report (run_options.once) keeps no timeline, which it never shows,
 * and says what a run that keeps one says, in every format. */
static void
test_report_keeps_none(void **state)
{
	static const char *const fmts[] = { "text", "json", "markdown" };
	char *rdir = tu_tmpdir(), *dir = tu_tmpdir(), *why = NULL;
	const char *paths[1] = { dir };
	struct run_options once = { 0 };
	struct notes ns;
	struct rulebook *rb = load_rule(rdir, &ns);
	struct run *kept, *none;
	struct timeline_view v;
	enum cell c[60];
	size_t i, f;
	int m;

	(void)state;
	for (m = 0; m < 10; m++)
		tu_say(dir, 0, m, 0, "step");
	tu_say(dir, 0, 19, 0, "timed out waiting here");
	tu_say(dir, 1, 5, 0, "BOOM happened here");
	once.once = 1;
	kept = run_new(rb, paths, 1, NULL, &why);
	none = run_new(rb, paths, 1, &once, &why);
	run_scan(kept, 1);
	run_scan(none, 1);
	incident_analyse(kept->incident);
	incident_analyse(none->incident);
	assert_int_equal(none->incident->rank_n, 2);
	for (i = 0; i < none->incident->rank_n; i++) {
		assert_null(none->incident->rank_v[i]->bins);
		assert_non_null(kept->incident->rank_v[i]->bins);
	}
	timeline_fit(none->incident, 40, &v);
	timeline_row(none->incident, 1, &v, c);
	for (i = 0; i < 40; i++)
		assert_int_equal(c[i], CELL_NONE);
	timeline_fit(kept->incident, 40, &v);
	timeline_row(kept->incident, 1, &v, c);
	assert_int_equal(c[timeline_col(&v, v.t0 + 5 * 60)], CELL_INITIATING);
	for (f = 0; f < sizeof fmts / sizeof *fmts; f++) {
		struct buf a = BUF_INIT, b = BUF_INIT;

		report_render(report_format_find(fmts[f]), kept, &a);
		report_render(report_format_find(fmts[f]), none, &b);
		assert_true(a.len > 0);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.s, b.s, a.len);
		buf_release(&a);
		buf_release(&b);
	}
	run_free(kept);
	run_free(none);
	rulebook_free(rb);
	notes_release(&ns);
	tu_rmdir(rdir);
	tu_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_report_keeps_none),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
