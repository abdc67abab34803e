/* test_ticks.c: checklist state survives a save and a reload, per run. */
#include "config.h"

#include "testutil.h"

#include "ticks.h"

static void
test_roundtrip(void **state)
{
	char *dir = tu_tmpdir(), *sub, *why = NULL;
	struct ticks *t;
	const struct tick *k;

	(void)state;
	sub = malloc(strlen(dir) + 32);
	sprintf(sub, "%s/deep/er", dir);
	t = ticks_open(sub, "run-1", "samples/x");
	assert_int_equal(t->n, 0);
	ticks_set(t, "cuda-oom", 0, 1, NULL);
	ticks_set(t, "cuda-oom", 2, 0, "tab\there\nnewline \\ back");
	ticks_set(t, "cuda-oom", 0, 0, "unticked again");
	assert_int_equal(ticks_save(t, &why), 0);
	ticks_free(t);
	t = ticks_open(sub, "run-1", "samples/x");
	assert_int_equal(t->n, 2);
	k = ticks_get(t, "cuda-oom", 0);
	assert_non_null(k);
	assert_int_equal(k->checked, 0);
	assert_string_equal(k->note, "unticked again");
	k = ticks_get(t, "cuda-oom", 2);
	assert_string_equal(k->note, "tab\there\nnewline \\ back");
	assert_null(ticks_get(t, "cuda-oom", 1));
	ticks_free(t);
	/* another run has its own state */
	t = ticks_open(sub, "run-2", "samples/y");
	assert_int_equal(t->n, 0);
	ticks_free(t);
	free(sub);
	tu_rmdir(dir);
}

static void
test_keys(void **state)
{
	const char *a[2] = { "/tmp", "/" }, *b[2] = { "/", "/tmp" }, *c[1] = { "/tmp" };
	char *ka = ticks_key(a, 2), *kb = ticks_key(b, 2), *kc = ticks_key(c, 1);

	(void)state;
	assert_string_equal(ka, kb);	/* the order of the paths does not matter */
	assert_string_not_equal(ka, kc);
	assert_null(strchr(ka, '/'));
	free(ka);
	free(kb);
	free(kc);
}

static void
test_unwritable(void **state)
{
	struct ticks *t = ticks_open("/proc/nope", "k", "r");
	char *why = NULL;

	(void)state;
	ticks_set(t, "e", 0, 1, NULL);
	assert_int_equal(ticks_save(t, &why), -1);
	assert_non_null(strstr(why, "/proc/nope"));
	free(why);
	ticks_free(t);
	/* folders below one that cannot be made: the first failure is the
	 * reason, not "No such file or directory" from those below it */
	t = ticks_open("/sys/rankwatch-test/a/b", "k", "r");
	ticks_set(t, "e", 0, 1, NULL);
	assert_int_equal(ticks_save(t, &why), -1);
	assert_null(strstr(why, "No such file or directory"));
	free(why);
	ticks_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_unwritable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
