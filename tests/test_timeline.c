/* test_timeline.c: the rank timeline laid out into cells, no terminal. */
#include "config.h"

#include "testutil.h"

#include "run.h"
#include "timeline.h"

static const char rule[] =
    "id: t\ntitle: T\ncategory: memory\nseverity: high\nsummary: s\n"
    "signatures:\n"
    "  - {id: boom, role: initiating, pattern: 'BOOM happened here'}\n"
    "  - {id: to, role: collateral, pattern: 'timed out waiting here'}\n";


static void
test_rows(void **state)
{
	char *rdir = tu_tmpdir(), *dir = tu_tmpdir(), *why = NULL;
	const char *paths[1] = { dir };
	struct rulebook *rb = rulebook_new();
	struct notes ns;
	struct run *r;
	struct timeline_view v;
	enum cell c[60];
	int m, col;

	(void)state;
	notes_init(&ns);
	TU_WRITE(rdir, "t.yaml", rule);
	rulebook_load_dir(rb, rdir, &ns);
	rulebook_finish(rb, &ns);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
