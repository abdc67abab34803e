/* stream.c: pipes as log sources: brace expansion of --cmd, running the
 * commands, and their end. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "stream.h"
#include "xmalloc.h"

struct words {
	char	**v;
	size_t	  n, cap;
};

static void
words_add(struct words *w, char *s)
{
	XGROW(w->v, w->cap, w->n + 1);
	w->v[w->n++] = s;
}

/* "{A..B}" at p (len bytes, braces included): the numbers, and the width
 * to pad to (a leading zero asks for it). */
static int
parse_range(const char *p, size_t len, long *a, long *b, int *width)
{
	char tmp[64], *dots, *end;

	if (len < 6 || len - 2 >= sizeof tmp)
		return 0;
	memcpy(tmp, p + 1, len - 2);
	tmp[len - 2] = '\0';
	if ((dots = strstr(tmp, "..")) == NULL)
		return 0;
	*dots = '\0';
	errno = 0;
	*a = strtol(tmp, &end, 10);
	if (end == tmp || *end != '\0' || errno != 0)
		return 0;
	*b = strtol(dots + 2, &end, 10);
	if (end == dots + 2 || *end != '\0' || errno != 0)
		return 0;
	*width = 0;
	if ((tmp[0] == '0' && tmp[1] != '\0') || (dots[2] == '0' && dots[3] != '\0'))
		*width = (int)(strlen(tmp) > strlen(dots + 2) ? strlen(tmp) : strlen(dots + 2));
	return 1;
}

/* Expand s into w, each word prefixed with pre. */
static int
expand(const char *pre, const char *s, struct words *w, char **why)
{
	const char *open, *close, *q;
	struct buf item = BUF_INIT;
	long a, b, i;
	int width, ok = 1;
	char *head;

	for (open = s; (open = strchr(open, '{')) != NULL; open++) {
		if ((close = strchr(open, '}')) == NULL)
			break;
		if (parse_range(open, (size_t)(close - open + 1), &a, &b, &width) ||
		    memchr(open, ',', (size_t)(close - open)) != NULL)
			break;
	}
	if (open == NULL || (close = strchr(open, '}')) == NULL) {
		if (w->n >= STREAM_MAX) {
			*why = xasprintf("more than %d commands", STREAM_MAX);
			return 0;
		}
		words_add(w, xasprintf("%s%s", pre, s));
		return 1;
	}
	head = xasprintf("%s%.*s", pre, (int)(open - s), s);
	if (parse_range(open, (size_t)(close - open + 1), &a, &b, &width)) {
		long step = a <= b ? 1 : -1;

		if ((a <= b ? b - a : a - b) >= STREAM_MAX) {
			*why = xasprintf("%.*s: more than %d commands", (int)(close - open + 1), open,
			    STREAM_MAX);
			free(head);
			return 0;
		}
		for (i = a; ok; i += step) {
			char *p = xasprintf("%s%0*ld", head, width, i);

			ok = expand(p, close + 1, w, why);
			free(p);
			if (i == b)
				break;
		}
	} else {
		for (q = open + 1; ok; q++) {
			const char *e = q;

			while (e < close && *e != ',')
				e++;
			buf_clear(&item);
			buf_printf(&item, "%s%.*s", head, (int)(e - q), q);
			ok = expand(item.s, close + 1, w, why);
			if (e == close)
				break;
			q = e;
		}
	}
	buf_release(&item);
	free(head);
	return ok;
}

size_t
stream_expand(const char *pattern, char ***out, char **why)
{
	struct words w = { NULL, 0, 0 };
	size_t i;

	*out = NULL;
	if (!expand("", pattern, &w, why)) {
		for (i = 0; i < w.n; i++)
			free(w.v[i]);
		free(w.v);
		return 0;
	}
	*out = w.v;
	return w.n;
}

int
stream_spawn(const char *cmd, pid_t *pid, char **why)
{
	int p[2], null;

	if (pipe2(p, O_CLOEXEC) != 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	if ((*pid = fork()) < 0) {
		*why = xasprintf("cannot start it: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (*pid == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		setpgid(0, 0);
		null = open("/dev/null", O_RDONLY);
		if (null < 0 || dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(*pid, *pid);	/* both sides: whichever runs first */
	close(p[1]);
	return p[0];
}

int
stream_reap(pid_t pid, int *status)
{
	pid_t r;

	while ((r = waitpid(pid, status, WNOHANG)) < 0 && errno == EINTR)
		;
	return r == pid;
}

void
stream_stop(pid_t pid)
{
	struct timespec nap = { 0, 10 * 1000000 };
	int status, i;

	if (pid <= 0)
		return;
	kill(-pid, SIGTERM);
	for (i = 0; i < 20; i++) {
		if (stream_reap(pid, &status))
			return;
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

const char *
stream_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended (wait status %d)", status);
	return buf;
}

void
stream_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}
