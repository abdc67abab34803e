/* test_stream.c: --cmd's brace expansion, and running a command as a
 * stream: its output, its end, its status. */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "stream.h"

static size_t
expand(const char *p, char ***v)
{
	char *why = NULL;
	size_t n = stream_expand(p, v, &why);

	free(why);
	return n;
}

static void
freev(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

static void
test_ranges_and_lists(void **state)
{
	char **v;
	size_t n;

	(void)state;
	n = expand("kubectl logs -f job-worker-{0..3}", &v);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "kubectl logs -f job-worker-0");
	assert_string_equal(v[3], "kubectl logs -f job-worker-3");
	freev(v, n);
	/* down, padded, and two groups: their product, left to right */
	n = expand("ssh node{2..1} tail -f r{08..10}.log", &v);
	assert_int_equal(n, 6);
	assert_string_equal(v[0], "ssh node2 tail -f r08.log");
	assert_string_equal(v[1], "ssh node2 tail -f r09.log");
	assert_string_equal(v[2], "ssh node2 tail -f r10.log");
	assert_string_equal(v[5], "ssh node1 tail -f r10.log");
	freev(v, n);
	n = expand("kubectl logs -f job-{master-0,worker-0,worker-1}", &v);
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "kubectl logs -f job-master-0");
	assert_string_equal(v[2], "kubectl logs -f job-worker-1");
	freev(v, n);
	/* a brace that is neither stays as it is: shell variables, awk */
	n = expand("echo ${HOME} | awk '{print $1}'", &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "echo ${HOME} | awk '{print $1}'");
	freev(v, n);
	n = expand("x{a..b}y", &v);	/* not numbers: kept */
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "x{a..b}y");
	freev(v, n);
}

static void
test_too_many(void **state)
{
	char **v = NULL, *why = NULL;

	(void)state;
	assert_int_equal(stream_expand("p{1..5000}", &v, &why), 0);
	assert_non_null(why);
	assert_non_null(strstr(why, "4096"));
	assert_null(v);
	free(why);
	why = NULL;
	/* 64 x 64 is more too, though each group is not */
	assert_int_equal(stream_expand("{1..64}-{1..65}", &v, &why), 0);
	assert_non_null(why);
	free(why);
}

static void
test_spawn(void **state)
{
	char buf[256], b[96], *why = NULL;
	size_t got = 0;
	ssize_t r;
	pid_t pid;
	int fd, status = 0, i;

	(void)state;
	/* output and error both come through the pipe; standard input is
	 * /dev/null (a command never steals the terminal's keys) */
	fd = stream_spawn("echo out; echo err >&2; cat; exit 3", &pid, &why);
	assert_true(fd >= 0);
	while ((r = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
	assert_string_equal(buf, "out\nerr\n");
	close(fd);
	for (i = 0; i < 200 && !stream_reap(pid, &status); i++)
		usleep(10000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_string_equal(stream_status(status, b, sizeof b), "exited with status 3");
	/* stop: the whole process group goes, at once (once it runs: a
	 * child stopped between fork and exec is valgrind's to report) */
	fd = stream_spawn("echo up; sleep 30 & sleep 30", &pid, &why);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, 3), 3);
	assert_memory_equal(buf, "up\n", 3);
	stream_stop(pid);
	assert_int_equal(kill(pid, 0), -1);
	/* the pipe ends: the background sleep went with its group */
	assert_int_equal(read(fd, buf, sizeof buf), 0);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_and_lists),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_spawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
