/* test_ticks.c: checklist state survives a save and a reload, per run. */
#include "config.h"

#include "testutil.h"

#include "ticks.h"
#include "xmalloc.h"

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

/* The same run named as its folder, as a file in it, through a link or
 * with ./ and .. has one key; another folder another. */
static void
test_keys_one_run(void **state)
{
	char *dir = tu_tmpdir(), *sub = xasprintf("%s/run", dir), *file = xasprintf("%s/run/x.out", dir);
	char *link = xasprintf("%s/alias", dir), *dotted = xasprintf("%s/run/../run/.", dir);
	char *other = xasprintf("%s/other", dir);
	const char *p1[1] = { sub }, *p2[1] = { file }, *p3[1] = { link }, *p4[1] = { dotted };
	const char *p5[2] = { file, sub }, *p6[1] = { other };
	char *k[6];
	FILE *fp;
	int i;

	(void)state;
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(other, 0700), 0);
	assert_non_null(fp = fopen(file, "w"));
	fclose(fp);
	assert_int_equal(symlink(sub, link), 0);
	k[0] = ticks_key(p1, 1);
	k[1] = ticks_key(p2, 1);
	k[2] = ticks_key(p3, 1);
	k[3] = ticks_key(p4, 1);
	k[4] = ticks_key(p5, 2);
	k[5] = ticks_key(p6, 1);
	for (i = 1; i < 5; i++)
		assert_string_equal(k[0], k[i]);
	assert_string_not_equal(k[0], k[5]);
	for (i = 0; i < 6; i++)
		free(k[i]);
	free(sub);
	free(file);
	free(link);
	free(dotted);
	free(other);
	tu_rmdir(dir);
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
		cmocka_unit_test(test_keys_one_run),
		cmocka_unit_test(test_unwritable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
