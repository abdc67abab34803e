/* test_replay.c: a run written again, in time order, with short pauses. */
#include "config.h"

#include "testutil.h"

#include "replay.h"

static char *
slurp(const char *dir, const char *name)
{
	char path[512], *s = calloc(1, 4096);
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "r");
	assert_non_null(fp);
	fread(s, 1, 4095, fp);
	fclose(fp);
	return s;
}

static void
test_replay(void **state)
{
	char *src = tu_tmpdir(), *dst = tu_tmpdir(), *why = NULL, *a, *b;
	struct replay *rp;
	long w, total = 0;
	size_t i;

	(void)state;
	TU_WRITE(src, "rank0.log",
	    "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] r0 first\n"
	    "[2024-03-02 10:30:00,000] [INFO] [t.py:1:f] r0 after a long wait\n");
	TU_WRITE(src, "sub/rank1.log",
	    "[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] r1 first\n"
	    "a line with no time\n");
	rp = replay_new(src, dst, 2.0, &why);
	assert_non_null(rp);
	assert_int_equal(replay_lines(rp), 4);
	a = slurp(dst, "rank0.log");
	assert_string_equal(a, "");	/* created empty, folders too */
	free(a);
	for (i = 0; (w = replay_step(rp, i)) >= 0; i++) {
		assert_true(w <= 2000);	/* the 30-minute gap is shortened */
		total += w;
		if (i == 1) {
			/* in time order: r0 first, then r1 first, across files */
			b = slurp(dst, "sub/rank1.log");
			assert_string_equal(b, "[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] r1 first\n");
			free(b);
		}
	}
	assert_int_equal(i + 1, 4);
	assert_true(total >= 1900 && total <= 2000);	/* scaled to about 2 s */
	a = slurp(dst, "rank0.log");
	assert_non_null(strstr(a, "after a long wait"));
	free(a);
	b = slurp(dst, "sub/rank1.log");
	assert_non_null(strstr(b, "a line with no time\n"));
	free(b);
	replay_free(rp);
	/* an empty source: a clear reason */
	tu_rmdir(dst);
	dst = tu_tmpdir();
	assert_null(replay_new(dst, src, 1.0, &why));
	assert_non_null(strstr(why, "no log lines"));
	free(why);
	tu_rmdir(src);
	tu_rmdir(dst);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
