/* test_discover.c: layouts recognised from real folder trees. */
#include "config.h"

#include "testutil.h"

#include "discover.h"

static const struct found *
find(const struct foundlist *fl, const char *name)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].name, name) == 0)
			return &fl->v[i];
	fail_msg("no %s", name);
	return NULL;
}

static void
test_torchrun_two_nodes_last_attempt(void **state)
{
	char *dir = tu_tmpdir();
	const char *paths[1];
	struct foundlist fl = { 0 };
	struct notes ns;
	int node, lr;
	char name[256];

	(void)state;
	notes_init(&ns);
	for (node = 0; node < 2; node++)
		for (lr = 0; lr < 4; lr++) {
			snprintf(name, sizeof name, "node%02d/none_ab%d/attempt_0/%d/stderr.log",
			    node + 9, node, lr);
			TU_WRITE(dir, name, "x\n");
			snprintf(name, sizeof name, "node%02d/none_ab%d/attempt_1/%d/stdout.log",
			    node + 9, node, lr);
			TU_WRITE(dir, name, "x\n");
		}
	TU_WRITE(dir, "node10/none_ab1/attempt_1/2/error.json", "{}");
	TU_WRITE(dir, "node09/checkpoint.pt", "binary");
	paths[0] = dir;
	assert_int_equal(discover(paths, 1, 0, &fl, &ns), 9);
	assert_string_equal(fl.layout, "torchrun");
	/* node09 sorts before node10 naturally: ranks 0-3 then 4-7 */
	assert_int_equal(find(&fl, "node09/none_ab0/attempt_1/3/stdout.log")->rank, 3);
	assert_int_equal(find(&fl, "node10/none_ab1/attempt_1/1/stdout.log")->rank, 5);
	assert_int_equal(find(&fl, "node10/none_ab1/attempt_1/2/error.json")->kind,
	    SOURCE_ERRORJSON);
	assert_int_equal(fl.skipped_attempts, 8);
	foundlist_release(&fl);
	/* --all-attempts keeps them */
	assert_int_equal(discover(paths, 1, 1, &fl, &ns), 17);
	foundlist_release(&fl);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_names_with_ranks(void **state)
{
	char *dir = tu_tmpdir();
	const char *paths[1];
	struct foundlist fl = { 0 };
	struct notes ns;
	char name[64];
	int i;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "flat/rank3.log", "x\n");
	TU_WRITE(dir, "flat/log_rank_12.txt", "x\n");
	TU_WRITE(dir, "flat/worker-7.out", "x\n");
	for (i = 0; i < 4; i++) {
		/* %x-%j-%N-%t: the node name has digits too */
		snprintf(name, sizeof name, "slurm/train-81234-gpu-a%02d-%d.out", i / 2 + 1, i);
		TU_WRITE(dir, name, "x\n");
	}
	TU_WRITE(dir, "combined/slurm-90211.out", "x\n");
	TU_WRITE(dir, "combined/notes.md", "not a log");
	TU_WRITE(dir, "combined/.hidden.log", "x\n");
	paths[0] = dir;
	discover(paths, 1, 0, &fl, &ns);
	assert_int_equal(fl.n, 8);
	assert_int_equal(find(&fl, "flat/rank3.log")->rank, 3);
	assert_int_equal(find(&fl, "flat/log_rank_12.txt")->rank, 12);
	assert_int_equal(find(&fl, "flat/worker-7.out")->rank, 7);
	assert_int_equal(find(&fl, "slurm/train-81234-gpu-a02-3.out")->rank, 3);
	assert_string_equal(find(&fl, "slurm/train-81234-gpu-a01-0.out")->layout, "per-task");
	assert_int_equal(find(&fl, "combined/slurm-90211.out")->rank, -1);
	foundlist_release(&fl);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_keyword_rank(void **state)
{
	(void)state;
	assert_int_equal(discover_keyword_rank("rank0.log"), 0);
	assert_int_equal(discover_keyword_rank("RANK_15.err"), 15);
	assert_int_equal(discover_keyword_rank("proc03.err"), 3);
	assert_int_equal(discover_keyword_rank("frank3.log"), -1);	/* not a keyword */
	assert_int_equal(discover_keyword_rank("ranks.log"), -1);
	assert_int_equal(discover_keyword_rank("rank3b.log"), -1);
	assert_int_equal(discover_keyword_rank(""), -1);
}

static void
test_missing_paths_and_many_files(void **state)
{
	char *dir = tu_tmpdir(), name[64], link[512];
	const char *paths[2];
	struct foundlist fl = { 0 };
	struct notes ns;
	int i;

	(void)state;
	notes_init(&ns);
	for (i = 0; i < 10000; i++) {
		snprintf(name, sizeof name, "many/rank%d.log", i);
		TU_WRITE(dir, name, "");
	}
	snprintf(link, sizeof link, "%s/many/dangling.log", dir);
	assert_int_equal(symlink("/nonexistent/x", link), 0);
	paths[0] = dir;
	paths[1] = "/nonexistent/run";
	assert_int_equal(discover(paths, 2, 0, &fl, &ns), 10000);
	assert_int_equal(find(&fl, "many/rank9999.log")->rank, 9999);
	assert_true(ns.errors >= 1);
	foundlist_release(&fl);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* Symbolic links to folders are followed, but nothing is read twice: a
 * folder linking to itself, a link to a file beside it, a path given twice. */
static void
test_links_read_once(void **state)
{
	char *dir = tu_tmpdir(), path[600], link[600];
	const char *paths[3];
	struct foundlist fl;
	struct notes ns;
	int k;

	(void)state;
	TU_WRITE(dir, "a/rank0.log", "x\n");
	for (k = 0; k < 8; k++) {
		snprintf(link, sizeof link, "%s/a/l%d", dir, k);
		assert_int_equal(symlink(".", link), 0);
	}
	snprintf(path, sizeof path, "%s/a/rank0.log", dir);
	snprintf(link, sizeof link, "%s/a/rank1.log", dir);
	assert_int_equal(symlink(path, link), 0);
	paths[0] = dir;
	paths[1] = dir;
	paths[2] = path;
	memset(&fl, 0, sizeof fl);
	notes_init(&ns);
	assert_int_equal(discover(paths, 3, 0, &fl, &ns), 1);
	foundlist_release(&fl);
	notes_release(&ns);
	tu_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torchrun_two_nodes_last_attempt),
		cmocka_unit_test(test_names_with_ranks),
		cmocka_unit_test(test_keyword_rank),
		cmocka_unit_test(test_missing_paths_and_many_files),
		cmocka_unit_test(test_links_read_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
