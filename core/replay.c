/* replay.c: order a sample run's lines by time and write them out again. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "discover.h"
#include "replay.h"
#include "source.h"
#include "xmalloc.h"

#define GAP_MAX_MS	2500	/* no pause in the replay is longer than this */

struct rline {
	uint32_t	file;
	uint32_t	len;
	uint64_t	off;
	int64_t		ms;	/* the line's time (its file's last known time) */
	uint32_t	order;
};

struct replay {
	char		**src;		/* per file */
	char		**dst;
	size_t		  nfiles;
	struct rline	 *v;
	size_t		  n, cap;
	long		 *wait;		/* per line: ms to wait after writing it */
};

struct collect {
	struct replay	*rp;
	struct linestate ls;
	uint32_t	 file;
	int64_t		 last;
};

static void
on_line(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct collect *c = arg;
	struct line ln;
	struct rline *l;

	(void)src;
	(void)lineno;
	(void)truncated;
	line_parse(&c->ls, text, len, &ln);
	/* A file's lines keep their order (a launcher's summary reports
	 * earlier times than the lines around it). */
	if (stamp_own(&ln.ts) && ln.ts.sec * 1000 + ln.ts.nsec / 1000000 > c->last)
		c->last = ln.ts.sec * 1000 + ln.ts.nsec / 1000000;
	XGROW(c->rp->v, c->rp->cap, c->rp->n + 1);
	l = &c->rp->v[c->rp->n];
	l->file = c->file;
	l->len = (uint32_t)len;
	l->off = offset;
	l->ms = c->last;
	l->order = (uint32_t)c->rp->n;
	c->rp->n++;
}

/* Only the year anchor: the first pass. */
static void
on_line_dry(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct linestate *ls = arg;
	struct line ln;

	(void)src;
	(void)offset;
	(void)lineno;
	(void)truncated;
	line_parse(ls, text, len, &ln);
}

static int
rline_cmp(const void *a, const void *b)
{
	const struct rline *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
mkdirs_for(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST) {
				free(p);
				return -1;
			}
			*s = '/';
		}
	free(p);
	return 0;
}

struct replay *
replay_new(const char *src, const char *dst, double seconds, char **why)
{
	struct replay *rp = xcalloc(1, sizeof *rp);
	struct foundlist fl;
	struct notes ns;
	const char *paths[1] = { src };
	char *buf = xmalloc(SOURCE_CHUNK);
	size_t i;
	int64_t total = 0, prev, anchor = 0;
	int anchor_dated = 0;

	memset(&fl, 0, sizeof fl);
	notes_init(&ns);
	discover(paths, 1, 0, &fl, &ns);
	/* Year-less stamps take the year of the run's dated lines, as the
	 * analysis does, so that the lines of all files sort together. */
	for (i = 0; i < fl.n; i++) {
		struct linestate ls;
		struct source *s = source_new(fl.v[i].path, fl.v[i].name, fl.v[i].kind,
		    fl.v[i].rank, fl.v[i].node, fl.v[i].nproc);

		linestate_init(&ls, -1, -1, 0);
		source_read(s, buf, &ns, on_line_dry, &ls);
		source_flush(s, on_line_dry, &ls);
		source_free(s);
		if (ls.anchor_dated && (!anchor_dated || ls.anchor > anchor)) {
			anchor = ls.anchor;
			anchor_dated = 1;
		}
	}
	rp->src = xcalloc(fl.n + 1, sizeof *rp->src);
	rp->dst = xcalloc(fl.n + 1, sizeof *rp->dst);
	for (i = 0; i < fl.n; i++) {
		struct collect c;
		struct source *s = source_new(fl.v[i].path, fl.v[i].name, fl.v[i].kind,
		    fl.v[i].rank, fl.v[i].node, fl.v[i].nproc);
		int fd;

		rp->src[i] = xstrdup(fl.v[i].path);
		rp->dst[i] = xasprintf("%s/%s", dst, fl.v[i].name);
		rp->nfiles++;
		if (mkdirs_for(rp->dst[i]) != 0 || (fd = open(rp->dst[i],
		    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
			*why = xasprintf("cannot create %s: %s", rp->dst[i], strerror(errno));
			source_free(s);
			goto fail;
		}
		close(fd);
		memset(&c, 0, sizeof c);
		c.rp = rp;
		c.file = (uint32_t)i;
		linestate_init(&c.ls, -1, -1, anchor);
		c.ls.anchor_dated = anchor_dated;
		source_read(s, buf, &ns, on_line, &c);
		source_flush(s, on_line, &c);
		source_free(s);
	}
	if (rp->n == 0) {
		*why = xasprintf("%s holds no log lines", src);
		goto fail;
	}
	qsort(rp->v, rp->n, sizeof *rp->v, rline_cmp);
	/* pauses: the gaps between lines, capped, then scaled to `seconds` */
	rp->wait = xcalloc(rp->n + 1, sizeof *rp->wait);
	prev = rp->v[0].ms;
	for (i = 1; i < rp->n; i++) {
		int64_t gap = rp->v[i].ms - prev;

		prev = rp->v[i].ms;
		rp->wait[i - 1] = gap > GAP_MAX_MS ? GAP_MAX_MS : gap < 0 ? 0 : (long)gap;
		total += rp->wait[i - 1];
	}
	if (total > 0 && seconds > 0)
		for (i = 0; i < rp->n; i++)
			rp->wait[i] = (long)((double)rp->wait[i] * seconds * 1000.0 / (double)total);
	rp->wait[rp->n - 1] = -1;
	free(buf);
	foundlist_release(&fl);
	notes_release(&ns);
	return rp;
fail:
	free(buf);
	foundlist_release(&fl);
	notes_release(&ns);
	replay_free(rp);
	return NULL;
}

void
replay_free(struct replay *rp)
{
	size_t i;

	if (rp == NULL)
		return;
	for (i = 0; i < rp->nfiles; i++) {
		free(rp->src[i]);
		free(rp->dst[i]);
	}
	free(rp->src);
	free(rp->dst);
	free(rp->v);
	free(rp->wait);
	free(rp);
}

size_t
replay_lines(const struct replay *rp)
{
	return rp->n;
}

long
replay_step(struct replay *rp, size_t i)
{
	const struct rline *l = &rp->v[i];
	char *text = xmalloc((size_t)l->len + 1);
	int out;
	ssize_t got = read_file_at(rp->src[l->file], text, l->len, l->off);

	if (got == (ssize_t)l->len &&
	    (out = open(rp->dst[l->file], O_WRONLY | O_APPEND | O_CLOEXEC)) >= 0) {
		text[l->len] = '\n';
		if (write(out, text, (size_t)l->len + 1) < 0)
			got = -1;
		/* the file changed when its line was written, as in the run
		 * recorded: a year-less line takes its year from that */
		if (l->ms > 0) {
			struct timespec ts[2];

			ts[0].tv_sec = ts[1].tv_sec = (time_t)stamp_to_epoch(l->ms / 1000);
			ts[0].tv_nsec = ts[1].tv_nsec = 0;
			(void)futimens(out, ts);
		}
		close(out);
	}
	free(text);
	return rp->wait[i];
}
