/* test_watch.c: real inotify and real polling on real folders. */
#include "config.h"

#include "testutil.h"

#include <poll.h>
#include <time.h>

#include "watch.h"

/* Wait up to ms for the watch to report a change. */
static int
wait_change(struct watch *w, int ms, int *rescan)
{
	struct pollfd pfd = { watch_fd(w), POLLIN, 0 };
	int waited = 0;

	while (waited <= ms) {
		int to = watch_timeout(w);

		if (to < 0 || to > 50)
			to = 50;
		poll(&pfd, pfd.fd >= 0 ? 1 : 0, to);
		if (watch_check(w, rescan))
			return 1;
		waited += to;
	}
	return 0;
}

static void
test_inotify_append_create_delete(void **state)
{
	char *dir = tu_tmpdir(), path[512];
	const char *paths[1] = { dir };
	struct notes ns;
	struct watch *w;
	int rescan;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "rank0.log", "a\n");
	w = watch_new(paths, 1, 0, &ns);
	assert_true(watch_fd(w) >= 0);
	assert_int_equal(watch_timeout(w), -1);	/* a local folder: no polling */
	assert_int_equal(wait_change(w, 100, &rescan), 0);	/* nothing happened */
	TU_APPEND(dir, "rank0.log", "b\n");
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	assert_int_equal(rescan, 0);	/* an append needs no new discovery */
	TU_WRITE(dir, "rank1.log", "new rank\n");
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	assert_int_equal(rescan, 1);
	snprintf(path, sizeof path, "%s/rank1.log", dir);
	unlink(path);
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	assert_int_equal(rescan, 1);
	/* a folder created later (a new attempt) is watched after a refresh */
	TU_WRITE(dir, "attempt_1/0/stderr.log", "x\n");
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	watch_refresh(w, paths, 1, &ns);
	assert_int_equal(watch_dirs(w), 3);
	TU_APPEND(dir, "attempt_1/0/stderr.log", "y\n");
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	watch_free(w);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* A job writing all the time is told of ten times a second, not at each
 * write; a change after a quiet spell is told at once; and a file
 * created among the appends still asks for a discovery. */
static void
test_coalesced(void **state)
{
	char *dir = tu_tmpdir();
	const char *paths[1] = { dir };
	struct notes ns;
	struct watch *w;
	struct timespec t0, t1, nap = { 0, 2 * 1000000 };
	struct pollfd pfd;
	int rescan, told = 0, any_rescan = 0, i;
	long ms;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "rank0.log", "a\n");
	w = watch_new(paths, 1, 0, &ns);
	pfd.fd = watch_fd(w);
	pfd.events = POLLIN;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 200; i++) {	/* 200 appends in about 400 ms */
		TU_APPEND(dir, "rank0.log", "b\n");
		if (i == 100)
			TU_WRITE(dir, "rank1.log", "late rank\n");
		nanosleep(&nap, NULL);
		(void)poll(&pfd, 1, 0);
		if (watch_check(w, &rescan)) {
			told++;
			any_rescan |= rescan;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(told >= 1);
	assert_true(told <= ms / WATCH_COALESCE_MS + 2);
	/* what is held back is told when its time is up */
	assert_true(watch_timeout(w) <= WATCH_COALESCE_MS);
	if (wait_change(w, 2 * WATCH_COALESCE_MS, &rescan))
		any_rescan |= rescan;
	assert_int_equal(any_rescan, 1);
	assert_int_equal(watch_timeout(w), -1);	/* nothing held back now */
	/* after a quiet spell, at once */
	nanosleep(&(struct timespec){ 0, (WATCH_COALESCE_MS + 20) * 1000000L }, NULL);
	TU_APPEND(dir, "rank0.log", "c\n");
	(void)poll(&pfd, 1, 1000);
	assert_int_equal(watch_check(w, &rescan), 1);
	watch_free(w);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_forced_polling(void **state)
{
	char *dir = tu_tmpdir();
	const char *paths[1] = { dir };
	struct notes ns;
	struct watch *w;
	const char *why;
	int rescan, t;

	(void)state;
	notes_init(&ns);
	w = watch_new(paths, 1, 200, &ns);
	assert_true(watch_polling(w, &why));
	assert_string_equal(why, "--poll");
	t = watch_timeout(w);
	assert_true(t >= 0 && t <= 200);
	/* the timer fires even when nothing local happened: remote writes */
	assert_int_equal(wait_change(w, 1000, &rescan), 1);
	assert_int_equal(rescan, 1);
	watch_free(w);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_thousand_files_one_watch(void **state)
{
	char *dir = tu_tmpdir(), name[32];
	const char *paths[1] = { dir };
	struct notes ns;
	struct watch *w;
	int i, rescan;

	(void)state;
	notes_init(&ns);
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "rank%d.log", i);
		TU_WRITE(dir, name, "x\n");
	}
	w = watch_new(paths, 1, 0, &ns);
	assert_int_equal(watch_dirs(w), 1);	/* folders are watched, not files */
	TU_APPEND(dir, "rank777.log", "y\n");
	assert_int_equal(wait_change(w, 2000, &rescan), 1);
	watch_free(w);
	/* a path that is a file: its folder is watched; a missing path: nothing */
	{
		char file[512];
		const char *p2[2];

		snprintf(file, sizeof file, "%s/rank3.log", dir);
		p2[0] = file;
		p2[1] = "/nonexistent/x";
		w = watch_new(p2, 2, 0, &ns);
		assert_int_equal(watch_dirs(w), 1);
		watch_free(w);
	}
	notes_release(&ns);
	tu_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inotify_append_create_delete),
		cmocka_unit_test(test_coalesced),
		cmocka_unit_test(test_forced_polling),
		cmocka_unit_test(test_thousand_files_one_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
