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

/* Each test: the shipped rules, the run, its rows. */
struct fixture {
	struct rulebook	*rb;
	struct run	*r;
	char		*dir;
	struct rows	 rows;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);

	f->rb = tu_rulebook(TEST_SRCDIR "/rules");
	f->r = make_run(f->rb, &f->dir);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	rows_release(&f->rows);
	run_free(f->r);
	rulebook_free(f->rb);
	tu_rmdir(f->dir);
	free(f);
	return 0;
}

/* Read the rest and analyse. */
static const struct analysis *
read_all(struct run *r)
{
	while (run_scan_step(r, 1 << 20, 1))
		;
	return incident_analyse(r->incident);
}

static void
test_cursor_stays_where_moved(void **state)
{
	struct fixture *f = *state;
	const struct analysis *an;

	read_until(f->r, 5);
	an = incident_analyse(f->r->incident);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);	/* so far */
	f->rows.sort = SORT_RANK;
	rows_build(&f->rows, f->r->incident, an, NULL, NULL);
	assert_int_equal(f->rows.v[f->rows.sel], 0);
	f->rows.sel += 3;		/* j j j */
	f->rows.moved = 1;
	assert_int_equal(f->rows.v[f->rows.sel], 3);
	an = read_all(f->r);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	f->rows.sort = SORT_ROLE;	/* trouble: by role, rank 6 first */
	rows_build(&f->rows, f->r->incident, an, NULL, NULL);
	assert_int_equal(f->rows.v[0], 6);
	assert_int_equal(f->rows.v[f->rows.sel], 3);	/* where the user left it */
}

static void
test_cursor_follows_until_moved(void **state)
{
	struct fixture *f = *state;

	read_until(f->r, 5);
	f->rows.sort = SORT_RANK;
	rows_build(&f->rows, f->r->incident, incident_analyse(f->r->incident), NULL, NULL);
	/* even with the rows by rank, the cursor goes to rank 6 */
	rows_build(&f->rows, f->r->incident, read_all(f->r), NULL, NULL);
	assert_int_equal(f->rows.v[f->rows.sel], 6);
}

static void
test_filters(void **state)
{
	struct fixture *f = *state;
	const struct analysis *an;

	read_until(f->r, 5);
	an = incident_analyse(f->r->incident);
	f->rows.filter = FILTER_TROUBLE;
	rows_build(&f->rows, f->r->incident, an, NULL, NULL);
	assert_int_equal(f->rows.n, 0);		/* healthy so far: none shown */
	rows_build(&f->rows, f->r->incident, an, reading, NULL);
	assert_true(f->rows.n >= 5);		/* still being read: shown */
	assert_int_equal(f->rows.n, f->r->incident->rank_n);
	an = read_all(f->r);
	f->rows.filter = FILTER_NO_COLLATERAL;
	rows_build(&f->rows, f->r->incident, an, NULL, NULL);
	assert_int_equal(f->rows.n, 8);		/* no rank reported fallout here */
	f->rows.filter = FILTER_EVENTS;
	rows_build(&f->rows, f->r->incident, an, NULL, NULL);
	assert_int_equal(f->rows.n, 1);
	assert_int_equal(f->rows.v[0], 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cursor_stays_where_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_follows_until_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
