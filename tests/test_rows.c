/* test_rows.c: the overview's rows while a run is still being read. The
 * cursor follows the initiating rank until the user moves it, and then
 * stays on the rank it was moved to when a later analysis re-sorts the
 * rows; a rank still being read is not filtered out as healthy. */
#include "config.h"

#include "testutil.h"
#include "testrules.h"

#include "run.h"
#include "../tui/rows.h"

/* 8 rank files; rank 6, read late, runs out of memory. */
static struct run *
make_run(struct rulebook *rb, char **dirp)
{
	char *dir = tu_tmpdir(), name[32], line[160];
	const char *paths[1];
	char *why = NULL;
	struct run *r;
	int k, i;

	for (k = 0; k < 8; k++) {
		snprintf(name, sizeof name, "rank%d.log", k);
		for (i = 0; i < 200; i++) {
			snprintf(line, sizeof line, "[2024-03-02 10:%02d:%02d,000] [INFO] [t.py:1:f] "
			    "step %d loss 2.0\n", i / 60, i % 60, i);
			TU_APPEND(dir, name, line);
		}
		if (k == 6)
			TU_APPEND(dir, name, "[rank6]: torch.OutOfMemoryError: CUDA out of memory. "
			    "Tried to allocate 2.00 GiB\n");
	}
	paths[0] = dir;
	r = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(r);
	*dirp = dir;
	return r;
}

/* Read the files up to (not into) the one of rank upto. */
static void
read_until(struct run *r, int upto)
{
	while (r->cursor < r->nsources && r->sources[r->cursor]->rank != upto)
		run_scan_step(r, 4096, 1);
}

static int
reading(const void *arg, int rank)
{
	(void)arg;
	(void)rank;
	return 1;
}

static void
test_cursor_stays_where_moved(void **state)
{
	struct rulebook *rb = tu_rulebook(TEST_SRCDIR "/rules");
	struct rows rows = { 0 };
	char *dir;
	struct run *r = make_run(rb, &dir);
	const struct analysis *an;

	(void)state;
	read_until(r, 5);
	an = incident_analyse(r->incident);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);	/* so far */
	rows.sort = SORT_RANK;
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.v[rows.sel], 0);
	rows.sel += 3;		/* j j j */
	rows.moved = 1;
	assert_int_equal(rows.v[rows.sel], 3);
	while (run_scan_step(r, 1 << 20, 1))
		;
	an = incident_analyse(r->incident);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	rows.sort = SORT_ROLE;	/* trouble: by role, rank 6 first */
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.v[0], 6);
	assert_int_equal(rows.v[rows.sel], 3);	/* where the user left it */
	rows_release(&rows);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
}

static void
test_cursor_follows_until_moved(void **state)
{
	struct rulebook *rb = tu_rulebook(TEST_SRCDIR "/rules");
	struct rows rows = { 0 };
	char *dir;
	struct run *r = make_run(rb, &dir);
	const struct analysis *an;

	(void)state;
	read_until(r, 5);
	rows.sort = SORT_RANK;
	rows_build(&rows, r->incident, incident_analyse(r->incident), NULL, NULL);
	while (run_scan_step(r, 1 << 20, 1))
		;
	an = incident_analyse(r->incident);
	rows.sort = SORT_RANK;	/* even with the rows by rank, the cursor is on rank 6 */
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.v[rows.sel], 6);
	rows_release(&rows);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
}

static void
test_filters(void **state)
{
	struct rulebook *rb = tu_rulebook(TEST_SRCDIR "/rules");
	struct rows rows = { 0 };
	char *dir;
	struct run *r = make_run(rb, &dir);
	const struct analysis *an;

	(void)state;
	read_until(r, 5);
	an = incident_analyse(r->incident);
	rows.filter = FILTER_TROUBLE;
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.n, 0);		/* healthy so far: none shown */
	rows_build(&rows, r->incident, an, reading, NULL);
	assert_true(rows.n >= 5);		/* still being read: shown */
	assert_int_equal(rows.n, r->incident->rank_n);
	while (run_scan_step(r, 1 << 20, 1))
		;
	an = incident_analyse(r->incident);
	rows.filter = FILTER_NO_COLLATERAL;
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.n, 8);		/* no rank reported fallout here */
	rows.filter = FILTER_EVENTS;
	rows_build(&rows, r->incident, an, NULL, NULL);
	assert_int_equal(rows.n, 1);
	assert_int_equal(rows.v[0], 6);
	rows_release(&rows);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor_stays_where_moved),
		cmocka_unit_test(test_cursor_follows_until_moved),
		cmocka_unit_test(test_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
