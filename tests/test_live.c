/* test_live.c: following a run and reading it when it is finished are one
 * code path, so the same bytes give the same report however they arrived.
 * Every bundled sample is written again into a temporary folder, once line
 * by line in time order across files (as --demo does) and once in slices
 * of a prime number of bytes that cut lines anywhere; the run follows it,
 * analysing after every few writes, and its final answer (verdict, rank,
 * confidence, reason, first suspect and entry) must be the answer of a
 * fresh read of the same finished files. */
#include "config.h"

#include "testutil.h"
#include "testrules.h"

#include <dirent.h>
#include <time.h>

#include "buf.h"
#include "replay.h"
#include "report.h"
#include "rulebook.h"
#include "run.h"

static struct rulebook *rb;

static int
setup(void **state)
{
	(void)state;
	rb = tu_rulebook(TEST_SRCDIR "/rules");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rulebook_free(rb);
	return 0;
}

static char *
report_of(struct run *r)
{
	struct buf b = BUF_INIT;

	report_render(report_format_find("json"), r, &b);
	return buf_detach(&b);
}

/* The report of a fresh read of the finished files under dir. */
static char *
fresh_report(const char *dir)
{
	const char *paths[1] = { dir };
	char *why = NULL, *s;
	struct run *r = run_new(rb, paths, 1, NULL, &why);

	assert_non_null(r);
	run_scan(r, 1);
	s = report_of(r);
	run_free(r);
	return s;
}

/* Follow dir while write(step) adds to it; analyse every `every` steps. */
static char *
follow(const char *dir, int (*write)(void *, size_t), void *arg, size_t every)
{
	const char *paths[1] = { dir };
	char *why = NULL, *s;
	struct run *r = run_new(rb, paths, 1, NULL, &why);
	size_t i;

	assert_non_null(r);
	for (i = 0; write(arg, i); i++)
		if (i % every == 0) {
			run_rediscover(r);
			run_scan(r, 0);
			(void)incident_analyse(r->incident);
		}
	run_rediscover(r);
	run_scan(r, 0);
	s = report_of(r);
	run_free(r);
	return s;
}

static int
write_line(void *arg, size_t i)
{
	return replay_step(arg, i) >= 0;
}

/* --- byte slices ------------------------------------------------------- */

#define SLICE	997	/* prime: cuts lines at every offset */

struct slicer {
	char	**src, **dst;
	FILE	**in;
	size_t	  n, turn;
	time_t	  when;		/* the recorded run's last time: files' mtime */
};

static void
list_files(const char *root, const char *rel, struct slicer *s)
{
	char path[1100];
	DIR *d;
	struct dirent *de;
	struct stat sb;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	assert_non_null(d = opendir(path));
	while ((de = readdir(d)) != NULL) {
		char sub[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(path, sizeof path, "%s/%s", root, sub);
		assert_int_equal(stat(path, &sb), 0);
		if (S_ISDIR(sb.st_mode))
			list_files(root, sub, s);
		else {
			s->src = realloc(s->src, (s->n + 1) * sizeof *s->src);
			s->src[s->n++] = strdup(sub);
		}
	}
	closedir(d);
}

static int
write_slice(void *arg, size_t step)
{
	struct slicer *s = arg;
	size_t tries;
	char buf[SLICE];

	(void)step;
	for (tries = 0; tries < s->n; tries++) {
		size_t k = s->turn++ % s->n, got;
		FILE *out;

		if (s->in[k] == NULL || (got = fread(buf, 1, sizeof buf, s->in[k])) == 0)
			continue;
		assert_non_null(out = fopen(s->dst[k], "ab"));
		assert_int_equal(fwrite(buf, 1, got, out), got);
		fflush(out);
		if (s->when > 0) {	/* written then, as the run recorded was */
			struct timespec ts[2];

			ts[0].tv_sec = ts[1].tv_sec = s->when;
			ts[0].tv_nsec = ts[1].tv_nsec = 0;
			assert_int_equal(futimens(fileno(out), ts), 0);
		}
		fclose(out);
		return 1;
	}
	return 0;
}

/* The answer a report gives: verdict, initiating rank, confidence, the
 * reason, the first suspect and the first entry (the lines of the JSON
 * report that carry them). */
static char *
answer_of(const char *json)
{
	struct buf b = BUF_INIT;
	const char *keys[] = { "\"verdict\"", "\"initiating\"", "\"suspects\"",
	    "\"diagnoses\"" };
	size_t i;

	for (i = 0; i < sizeof keys / sizeof *keys; i++) {
		const char *p = strstr(json, keys[i]), *e;

		if (p == NULL)
			continue;
		if (i >= 2 && (p = strchr(p, '\n')) != NULL)
			p++;	/* the first element of the list */
		if (p == NULL)
			continue;
		/* up to the first event object or the end of the line */
		e = p + strcspn(p, "\n");
		if (i < 2 && strstr(p, "\"event\"") != NULL && strstr(p, "\"event\"") < e)
			e = strstr(p, "\"event\"");
		if (i == 3 && strstr(p, "\"score\"") != NULL && strstr(p, "\"score\"") < e)
			e = strstr(p, "\"score\"");
		buf_add(&b, p, (size_t)(e - p));
		buf_addc(&b, '\n');
	}
	return buf_detach(&b);
}

static void
same_answer(const char *name, const char *how, const char *live, const char *fresh)
{
	char *a = answer_of(live), *b = answer_of(fresh);

	if (strcmp(a, b) != 0)
		fail_msg("%s: following %s answered\n%s\nbut a fresh read of the same files "
		    "answered\n%s", name, how, a, b);
	free(a);
	free(b);
}

static void
check_sample(const char *name)
{
	char src[512], *dst = tu_tmpdir(), *why = NULL, *live, *fresh;
	struct replay *rp;
	struct slicer sl;
	size_t i;

	snprintf(src, sizeof src, "%s/samples/%s", TEST_SRCDIR, name);

	/* line by line, in time order across files */
	assert_non_null(rp = replay_new(src, dst, 1.0, &why));
	live = follow(dst, write_line, rp, 7);
	replay_free(rp);
	fresh = fresh_report(dst);
	same_answer(name, "line by line", live, fresh);
	free(live);
	free(fresh);
	tu_rmdir(dst);

	/* in byte slices that cut lines anywhere, files taking turns */
	dst = tu_tmpdir();
	memset(&sl, 0, sizeof sl);
	{
		const char *paths[1] = { src };
		struct run *r = run_new(rb, paths, 1, NULL, &why);

		assert_non_null(r);
		run_scan(r, 1);
		if (r->incident->last.flags & STAMP_TIME)
			sl.when = (time_t)stamp_to_epoch(r->incident->last.sec);
		run_free(r);
	}
	list_files(src, "", &sl);
	sl.dst = calloc(sl.n, sizeof *sl.dst);
	sl.in = calloc(sl.n, sizeof *sl.in);
	for (i = 0; i < sl.n; i++) {
		char path[1024];

		snprintf(path, sizeof path, "%s/%s", src, sl.src[i]);
		sl.in[i] = fopen(path, "rb");
		sl.dst[i] = tu_write(dst, sl.src[i], "", 0, 0);
	}
	live = follow(dst, write_slice, &sl, 3);
	fresh = fresh_report(dst);
	same_answer(name, "in byte slices", live, fresh);
	free(live);
	free(fresh);
	for (i = 0; i < sl.n; i++) {
		if (sl.in[i] != NULL)
			fclose(sl.in[i]);
		free(sl.src[i]);
		free(sl.dst[i]);
	}
	free(sl.src);
	free(sl.dst);
	free(sl.in);
	tu_rmdir(dst);
}

static void
test_every_sample(void **state)
{
	DIR *d;
	struct dirent *de;
	size_t n = 0;

	(void)state;
	assert_non_null(d = opendir(TEST_SRCDIR "/samples"));
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		char name[256];

		if (l < 7 || strcmp(de->d_name + l - 6, ".truth") != 0 || l - 6 >= sizeof name)
			continue;
		memcpy(name, de->d_name, l - 6);
		name[l - 6] = '\0';
		check_sample(name);
		n++;
	}
	closedir(d);
	assert_true(n >= 10);	/* the samples were found */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_sample),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
