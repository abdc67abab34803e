/* source.c: read a log file from where we left off, line by line.
 * Opens, reads to EOF in large chunks, closes: no source keeps a
 * descriptor (a reader that stops at its budget keeps the one of the file
 * it goes on with: struct srchold), no text is kept but the partial last
 * line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "buf.h"
#include "source.h"
#include "stream.h"
#include "strset.h"
#include "xmalloc.h"

struct source *
source_new(const char *path, const char *name, enum source_kind kind,
    int rank, int node, int nproc)
{
	return source_new_in(NULL, path, name, kind, rank, node, nproc);
}

struct source *
source_new_in(struct strset *dirs, const char *path, const char *name,
    enum source_kind kind, int rank, int node, int nproc)
{
	size_t pn = strlen(path) + 1, nn = strlen(name) + 1;
	int stream = kind == SOURCE_STDIN || kind == SOURCE_CMD;
	/* one allocation with its names (a run may have 100,000): when the
	 * path is a folder's and the name, as under a run's folder, the
	 * name alone and the folder in dirs, else one name or both */
	int tail = pn > nn && path[pn - nn - 1] == '/' && memcmp(path + pn - nn, name, nn) == 0;
	int in_dir = tail && dirs != NULL && !stream;
	struct source *src = xcalloc(1, sizeof *src + (in_dir ? nn : pn + (tail ? 0 : nn)));
	char *p = (char *)(src + 1);

	if (in_dir) {
		src->where.name = memcpy(p, name, nn);
		src->where.base = strset_add(dirs, path, pn - nn);	/* with its '/' */
	} else {
		memcpy(p, path, pn);
		src->where.name = tail ? p + pn - nn : memcpy(p + pn, name, nn);
		src->where.base = stream ? NULL : p;
	}
	src->kind = (unsigned char)kind;
	src->rank = rank;
	src->node = node;
	src->nproc = nproc > 0 && nproc <= UINT16_MAX ? (uint16_t)nproc : 0;
	if (stream) {
		src->st = xcalloc(1, sizeof *src->st);
		src->st->cmd = p;
		src->st->fd = kind == SOURCE_STDIN ? 0 : -1;
		src->st->spool_fd = -1;
	}
	return src;
}

/* A reading state asleep (source_sleep): which of its 8-byte words differ
 * from a new one's (reader_init), those words, then its kept ranks and
 * its hosts, NUL after each. */
struct srcsleep {
	uint64_t	 map;
	uint64_t	 w[];
};

#define SRCREAD_WORDS	(sizeof(struct srcread) / sizeof(uint64_t))
_Static_assert(sizeof(struct srcread) % sizeof(uint64_t) == 0 && SRCREAD_WORDS <= 64,
    "a sleeping reading state's map has a bit for each of its words");

/* A new reading state of src (rd zeroed). */
static void
reader_init(const struct source *src, struct srcread *rd)
{
	rd->line_max = SOURCE_LINE_MAX;
	linestate_init(&rd->ls, src->rank, src->node, 0);
	rd->ls.nproc = src->nproc;
	envstate_init(&rd->env);
}

/* rd as it was when src went to sleep. */
static void
sleeper_unpack(const struct source *src, struct srcread *rd)
{
	const struct srcsleep *z = src->asleep;
	size_t i, k = 0;

	memset(rd, 0, sizeof *rd);
	reader_init(src, rd);
	for (i = 0; i < SRCREAD_WORDS; i++)
		if (z->map >> i & 1)
			memcpy((char *)rd + i * sizeof(uint64_t), &z->w[k++], sizeof(uint64_t));
}

static void
wake(struct source *src)
{
	struct srcsleep *z = src->asleep;
	struct srcread *rd = xmalloc(sizeof *rd);
	const char *p;
	size_t i;

	sleeper_unpack(src, rd);
	p = (const char *)&z->w[__builtin_popcountll(z->map)];
	if (rd->nkept > 0) {
		rd->kept_ranks = xmalloc(rd->nkept * sizeof *rd->kept_ranks);
		memcpy(rd->kept_ranks, p, rd->nkept * sizeof *rd->kept_ranks);
		p += rd->nkept * sizeof *rd->kept_ranks;
	}
	rd->capkept = rd->nkept;
	if (rd->nhosts > 0)
		rd->hosts = xmalloc(rd->nhosts * sizeof *rd->hosts);
	for (i = 0; i < rd->nhosts; i++, p += strlen(p) + 1)
		rd->hosts[i] = xstrdup(p);
	free(z);
	src->asleep = NULL;
	src->rd = rd;
}

/* src's reading state, awake or asleep (unpacked into tmp, not woken);
 * NULL when it has none (not read yet, or retired). */
static const struct srcread *
peek(const struct source *src, struct srcread *tmp)
{
	if (src->rd != NULL || src->asleep == NULL)
		return src->rd;
	sleeper_unpack(src, tmp);
	return tmp;
}

int
source_file_id(const struct source *src, struct source_file_id *id)
{
	struct srcread tmp;
	const struct srcread *rd = peek(src, &tmp);

	if (rd == NULL)
		return 0;
	id->dev = rd->dev;
	id->ino = rd->ino;
	id->prev_dev = rd->prev_dev;
	id->prev_ino = rd->prev_ino;
	id->offset = rd->offset;
	id->prev_offset = rd->prev_offset;
	return 1;
}

int
source_anchor(const struct source *src, int64_t *anchor, int *dated)
{
	struct srcread tmp;
	const struct srcread *rd = peek(src, &tmp);

	if (rd == NULL)
		return 0;
	*anchor = rd->ls.anchor;
	*dated = rd->ls.anchor_dated;
	return 1;
}

struct srcread *
source_reader(struct source *src)
{
	if (src->asleep != NULL)
		wake(src);
	if (src->rd != NULL || src->retired)
		return src->rd;
	src->rd = xcalloc(1, sizeof *src->rd);
	reader_init(src, src->rd);
	return src->rd;
}

struct source *
source_new_stream(const char *cmd, int rank, const char *spool_dir, struct notes *ns)
{
	struct source *src = source_new(cmd ? cmd : "-", cmd ? cmd : "(stdin)",
	    cmd ? SOURCE_CMD : SOURCE_STDIN, rank, -1, 0);
	char *why = NULL;
	struct stamp now;

	/* a stream is written now: a time without a year is of the last
	 * twelve months (what a file's mtime says for a file) */
	stamp_from_epoch((int64_t)time(NULL), 0, &now);
	source_reader(src)->ls.anchor = now.sec;
	if (cmd != NULL && (src->st->fd = stream_spawn(cmd, &src->st->child, &why)) < 0) {
		notes_add(ns, NOTE_ERROR, src->where.name, 0, 0, "%s", why);
		free(why);
		src->failed = EIO;
		src->done = 1;
	}
	if (spool_dir != NULL && !src->done)
		source_spool(src, spool_dir, ns);
	return src;
}

void
source_spool(struct source *src, const char *dir, struct notes *ns)
{
	char *tmp = xasprintf("%s/rankwatch-stream-XXXXXX", dir);

	/* unlinked at once, and read again through /proc/self/fd: nothing
	 * is left behind, however rankwatch ends */
	if ((src->st->spool_fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		notes_add(ns, NOTE_WARN, src->where.name, 0, 0, "cannot keep a copy in %s (%s): "
		    "its lines cannot be shown again", dir, strerror(errno));
		free(tmp);
		return;
	}
	unlink(tmp);
	free(tmp);
	src->st->spool = xasprintf("/proc/self/fd/%d", src->st->spool_fd);
	src->where.base = src->st->spool;
}

const char *
source_reread_path(const struct source *src, char *buf, size_t size)
{
	/* set by source_new and source_spool */
	return event_where_path(&src->where, buf, size);
}

const char *
source_path(const struct source *src, char *buf, size_t size)
{
	return src->st != NULL ? src->st->cmd : event_where_path(&src->where, buf, size);
}

/* Keep a stream's bytes, at the offsets they have in the stream. */
static void
spool(struct source *src, const char *p, size_t n, struct notes *ns)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(src->st->spool_fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			notes_add(ns, NOTE_WARN, src->where.name, 0, 0,
			    "cannot keep a copy in %s (%s): what follows cannot be shown again",
			    src->st->spool,
			    w < 0 ? strerror(errno) : "short write");
			/* what was kept stays readable: events point at it */
			src->st->spool_full = 1;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

/* A stream at its end: close its pipe and say how its command ended. */
static void
stream_end(struct source *src, struct notes *ns)
{
	char b[96];

	src->done = 1;
	if (src->kind != SOURCE_CMD)
		return;
	if (src->st->fd >= 0)
		close(src->st->fd);
	src->st->fd = -1;
	/* a command that failed says so (kubectl: no such pod); one that
	 * ended well is what a finished job's log does, and not noted */
	if (src->st->child > 0 && stream_wait(src->st->child, &src->st->status, 200)) {
		src->st->ended = 1;
		if (!WIFEXITED(src->st->status) || WEXITSTATUS(src->st->status) != 0) {
			/* its output is no log to judge (kubectl: no such pod) */
			notes_add(ns, NOTE_WARN, src->where.name, 0, 0, "the command %s: "
			    "what it printed is read, but its log is not judged healthy",
			    stream_status(src->st->status, b, sizeof b));
			src->failed = SOURCE_CMD_FAILED;
		}
	}
}

void
source_retire(struct source *src)
{
	/* the scanner's half-record (rd->wrap) is the scanner's to release
	 * first (scan_source_release) */
	struct srcread *rd;

	if (src->asleep != NULL)
		wake(src);
	if ((rd = src->rd) == NULL)
		return;
	free(rd->carry);
	free(rd->kept_ranks);
	/* the incident has its own copies of the hosts: no event is left
	 * that points at these (the batches are applied) */
	while (rd->nhosts > 0)
		free(rd->hosts[--rd->nhosts]);
	free(rd->hosts);
	envstate_release(&rd->env);
	if (rd->doc != NULL)
		buf_release(rd->doc);
	free(rd->doc);
	free(rd);
	src->rd = NULL;
	src->retired = 1;
}

void
source_sleep(struct source *src)
{
	struct srcread *rd = src->rd, fresh;
	struct srcsleep *z;
	uint64_t map = 0;
	size_t i, n = 0, extra, k;
	int *kept;
	char **hosts, *p;

	if (rd == NULL)
		return;
	/* the arrays go into the sleeper (the batches that named these
	 * hosts are applied: the incident has its own copies) */
	kept = rd->kept_ranks;
	hosts = rd->hosts;
	rd->kept_ranks = NULL;
	rd->hosts = NULL;
	rd->capkept = 0;
	extra = rd->nkept * sizeof *kept;
	for (i = 0; i < rd->nhosts; i++)
		extra += strlen(hosts[i]) + 1;
	memset(&fresh, 0, sizeof fresh);
	reader_init(src, &fresh);
	for (i = 0; i < SRCREAD_WORDS; i++)
		if (memcmp((const char *)rd + i * sizeof(uint64_t),
		    (const char *)&fresh + i * sizeof(uint64_t), sizeof(uint64_t)) != 0) {
			map |= (uint64_t)1 << i;
			n++;
		}
	z = xmalloc(sizeof *z + n * sizeof(uint64_t) + extra);
	z->map = map;
	for (i = 0, k = 0; i < SRCREAD_WORDS; i++)
		if (map >> i & 1)
			memcpy(&z->w[k++], (const char *)rd + i * sizeof *z->w, sizeof *z->w);
	p = (char *)&z->w[n];
	if (rd->nkept > 0)
		memcpy(p, kept, rd->nkept * sizeof *kept);
	p += rd->nkept * sizeof *kept;
	for (i = 0; i < rd->nhosts; i++) {
		p = stpcpy(p, hosts[i]) + 1;
		free(hosts[i]);
	}
	free(kept);
	free(hosts);
	free(rd);
	src->rd = NULL;
	src->asleep = z;
}

void
source_free(struct source *src)
{
	if (src == NULL)
		return;
	source_retire(src);
	if (src->st != NULL) {
		if (src->kind == SOURCE_CMD && src->st->fd >= 0)
			close(src->st->fd);
		if (src->st->child > 0 && !src->st->ended)
			stream_stop(src->st->child);
		if (src->st->spool_fd >= 0)
			close(src->st->spool_fd);
		free(src->st->spool);
		free(src->st);
	}
	free(src);
}

static int64_t
local_mtime(const struct stat *sb)
{
	struct stamp s;

	stamp_from_epoch((int64_t)sb->st_mtime, 0, &s);
	return s.sec;
}

/* Hand a line to fn. A line is counted once however many pieces of it are
 * handed on (a hole or an over-long head ends a piece, not the line):
 * ends says whether this piece ends the file's line. */
static void
emit(struct source *src, const char *p, size_t n, uint64_t off,
    source_line_fn fn, void *arg, int truncated, int ends)
{
	if (!src->rd->midline)
		src->rd->lineno++;
	src->rd->midline = !ends;
	fn(arg, src, p, n, off, src->rd->lineno, truncated);
}

/* The number of the line being read. */
static unsigned long
this_line(const struct source *src)
{
	return src->rd->midline ? src->rd->lineno : src->rd->lineno + 1;
}

/* The newlines of a buffer, in order: 64 bytes are looked at with a few
 * vector compares and their newlines kept as a mask, which the lines of
 * those bytes (two or three to a typical 64) then share, where a memchr
 * per line would start over at each. */
struct newlines {
	const char	*blk;	/* mask's first byte; NULL: no mask */
	const char	*end;
	uint64_t	 mask;	/* bit i: blk[i] == '\n' */
};

static void
newlines_init(struct newlines *nl, const char *end)
{
	nl->blk = NULL;
	nl->end = end;
	nl->mask = 0;
}

/* The first newline at or after p (p past the last one returned), or
 * NULL. */
static const char *
newlines_next(struct newlines *nl, const char *p)
{
#ifdef __SSE2__
	const __m128i lf = _mm_set1_epi8('\n');

	for (;;) {
		uint64_t m;

		if (nl->blk == NULL || p >= nl->blk + 64) {
			if (nl->end - p < 64)
				return memchr(p, '\n', (size_t)(nl->end - p));
			nl->blk = p;
			nl->mask = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)p), lf)) |
			    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(p + 16)), lf)) << 16 |
			    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(p + 32)), lf)) << 32 |
			    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(p + 48)), lf)) << 48;
		}
		m = nl->mask >> (p - nl->blk);
		if (m != 0)
			return p + __builtin_ctzll(m);
		p = nl->blk + 64;
	}
#else
	return memchr(p, '\n', (size_t)(nl->end - p));
#endif
}

/* Bytes p[0..n) with no NUL in them. */
static void
feed_text(struct source *src, const char *p, size_t n, struct notes *ns,
    source_line_fn fn, void *arg)
{
	const char *end = p + n, *nl;
	uint64_t base = src->rd->offset + src->rd->carrylen;	/* where p[0] is in the file */
	/* the next '\r': a look here, again only past each one, spares
	 * line_parse one per line (a progress bar's '\r's, once in a
	 * file, no longer cost every line of the read) */
	const char *cr = memchr(p, '\r', n);
	struct newlines nls;

	newlines_init(&nls, end);
	while (p < end) {
		nl = newlines_next(&nls, p);
		if (src->rd->skipping) {
			if (nl == NULL) {
				src->rd->offset = base + n;	/* skipped to here */
				return;
			}
			src->rd->skipping = 0;
			src->rd->midline = 0;
			p = nl + 1;
			src->rd->offset = base + (uint64_t)(p - (end - n));
			continue;
		}
		if (src->rd->carrylen == 0 && nl != NULL &&
		    (size_t)(nl - p) <= src->rd->line_max) {
			size_t len = (size_t)(nl - p);

			if (len > 0 && p[len - 1] == '\r')
				len--;	/* CRLF */
			if (cr != NULL && cr < p)
				cr = memchr(p, '\r', (size_t)(end - p));
			src->rd->ls.cr_free = cr == NULL || cr >= p + len;
			emit(src, p, len, src->rd->offset, fn, arg, 0, 1);
			src->rd->ls.cr_free = 0;
			p = nl + 1;
			src->rd->offset = base + (uint64_t)(p - (end - n));
			continue;
		}
		/* Partial line, or a line that spans reads, or a huge one. */
		{
			size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
			size_t room = src->rd->line_max - src->rd->carrylen;

			if (take > room) {
				/* Over-long: keep its head, skip to the newline. */
				src->rd->carry = xgrow(src->rd->carry, &src->rd->carrycap,
				    src->rd->line_max, 1);
				memcpy(src->rd->carry + src->rd->carrylen, p, room);
				src->rd->carrylen = src->rd->line_max;
				if (src->rd->line_max % 1024 == 0)
					notes_add(ns, NOTE_WARN, src->where.name, this_line(src), 0,
					    "line longer than %u KiB; matched on its first %u KiB",
					    src->rd->line_max / 1024, src->rd->line_max / 1024);
				else
					notes_add(ns, NOTE_WARN, src->where.name, this_line(src), 0,
					    "line longer than %u bytes; matched on its first %u",
					    src->rd->line_max, src->rd->line_max);
				emit(src, src->rd->carry, src->rd->carrylen, src->rd->offset, fn, arg, 1, 0);
				src->rd->carrylen = 0;
				if (nl == NULL) {
					src->rd->skipping = 1;
					src->rd->offset = base + n;
					return;
				}
				src->rd->midline = 0;
				p = nl + 1;
				src->rd->offset = base + (uint64_t)(p - (end - n));
				continue;
			}
			src->rd->carry = xgrow(src->rd->carry, &src->rd->carrycap,
			    src->rd->carrylen + take + 1, 1);
			memcpy(src->rd->carry + src->rd->carrylen, p, take);
			src->rd->carrylen += take;
			if (nl == NULL)
				return;
			if (src->rd->carrylen > 0 && src->rd->carry[src->rd->carrylen - 1] == '\r')
				src->rd->carrylen--;
			emit(src, src->rd->carry, src->rd->carrylen, src->rd->offset, fn, arg, 0, 1);
			src->rd->carrylen = 0;
			p = nl + 1;
			src->rd->offset = base + (uint64_t)(p - (end - n));
		}
	}
}

/* A run of NUL bytes is a block a crashed writer never wrote (a hole, on
 * ext4 or NFS), or padding: it ends the text before it, which is handed on
 * as a piece of its line, and is skipped. Text after it, up to the
 * newline, is the rest of that line: the failure a restarted process
 * appended after the hole is read, not buried in a 2 GB "line". */
static void
hole(struct source *src, size_t run, source_line_fn fn, void *arg)
{
	if (src->rd->skipping)
		src->rd->skipping = 0;	/* the head was handed on already */
	else if (src->rd->carrylen > 0) {
		emit(src, src->rd->carry, src->rd->carrylen, src->rd->offset, fn, arg, 0, 0);
		src->rd->offset += src->rd->carrylen;
		src->rd->carrylen = 0;
	}
	src->rd->offset += run;
}

void
source_feed(struct source *src, const char *p, size_t n, struct notes *ns,
    source_line_fn fn, void *arg)
{
	const char *end = p + n, *q;

	if (source_reader(src) == NULL)	/* retired */
		return;
	while ((q = memchr(p, '\0', (size_t)(end - p))) != NULL) {
		const char *t = q;

		feed_text(src, p, (size_t)(q - p), ns, fn, arg);
		while (t < end && *t == '\0')
			t++;
		hole(src, (size_t)(t - q), fn, arg);
		p = t;
	}
	feed_text(src, p, (size_t)(end - p), ns, fn, arg);
}

void
source_flush(struct source *src, source_line_fn fn, void *arg)
{
	if (src->rd != NULL && src->rd->carrylen > 0) {
		emit(src, src->rd->carry, src->rd->carrylen, src->rd->offset, fn, arg, 0, 1);
		src->rd->offset += src->rd->carrylen;
		src->rd->carrylen = 0;
	}
}

/* A short look at the first bytes. Terminal controls (ESC, BEL, BS, FF,
 * VT) are text: progress bars and coloured logs are full of them. In a
 * log, NUL bytes come in runs where
 * a crash mid-write (ext4, NFS) left a block zero-filled: those runs are
 * holes, not content. Binary is what the rest says: a checkpoint or core
 * file has NULs and control bytes scattered everywhere. */
#define NUL_HOLE	8	/* a run of NULs this long is a hole */

/* No byte below space but tab, LF and CR in u[0..n): no NUL, nothing
 * odd. Sixteen bytes a step: every file's head is looked at (16,384 of
 * them in a run of 16 KiB logs). */
static int
plain_text(const unsigned char *u, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i c1f = _mm_set1_epi8(0x1f), tab = _mm_set1_epi8('\t');
	const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');

	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
		__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, c1f), x);	/* x <= 0x1f */
		__m128i ok = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, tab),
		    _mm_cmpeq_epi8(x, lf)), _mm_cmpeq_epi8(x, cr));

		if (_mm_movemask_epi8(_mm_andnot_si128(ok, ctl)) != 0)
			return 0;
	}
#endif
	for (; i < n; i++)
		if (u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r')
			return 0;
	return 1;
}

/* A report of rankwatch's own, saved beside the logs ("rankwatch --report
 * run/ > run/report.txt"), by its first line: the text's verdict line,
 * the Markdown title, the JSON's first key. Read as a log, the lines it
 * quotes would be evidence a second time. */
static int
looks_like_report(const char *p, size_t n)
{
	const char *nl = memchr(p, '\n', n < 1024 ? n : 1024);
	size_t l = nl != NULL ? (size_t)(nl - p) : 0, m = n < 4096 ? n : 4096;

	if (l == 0)
		return 0;
	if ((starts(p, l, "FAILURE  ") || starts(p, l, "HANG  ") || starts(p, l, "HEALTHY  ")) &&
	    p[l - 1] == ')' && memmem(p, l, "  (confidence ", strlen("  (confidence ")) != NULL)
		return memmem(p, m, "\nRun: ", strlen("\nRun: ")) != NULL;
	return starts(p, l, "## rankwatch: ") || (starts(p, n, "{\n  \"verdict\": \"") &&
	    memmem(p, m, "\n  \"initiating\": ", strlen("\n  \"initiating\": ")) != NULL);
}

static int
looks_binary(const char *p, size_t n)
{
	size_t i, text = 0, odd = 0, lim = n < 4096 ? n : 4096;

	/* the usual case: nothing odd at all */
	if (plain_text((const unsigned char *)p, lim))
		return 0;
	for (i = 0; i < lim; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\0') {
			size_t j = i;

			while (j < lim && p[j] == '\0')
				j++;
			if (j - i >= NUL_HOLE || j == lim) {
				i = j - 1;	/* a hole (or the read ends in one) */
				continue;
			}
			odd += j - i;
			i = j - 1;
		} else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != 0x1b &&
		    c != '\a' && c != '\b' && c != '\f' && c != '\v')
			odd++;
		else
			text++;
	}
	if (text == 0)
		return odd > 0 || lim > 0;	/* nothing but NULs: no text to read */
	/* more than 1% of the content, and more than a stray few: a short log
	 * with a terminal's escapes (ESC, BEL) in it is still a log */
	return odd > 3 && odd * 100 > text + odd;
}

/* --- torchrun error.json --------------------------------------------- */

/* Walk a parsed document for message.message and the timestamp. */
static void
errorjson_walk(yaml_document_t *doc, yaml_node_t *node, const char **msg,
    const char **ts)
{
	yaml_node_pair_t *pair;

	if (node == NULL)
		return;
	if (node->type != YAML_MAPPING_NODE)
		return;
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		const char *key;

		if (k == NULL || v == NULL || k->type != YAML_SCALAR_NODE)
			continue;
		key = (const char *)k->data.scalar.value;
		if (v->type == YAML_SCALAR_NODE) {
			if (strcmp(key, "message") == 0 && *msg == NULL)
				*msg = (const char *)v->data.scalar.value;
			else if (strcmp(key, "timestamp") == 0 && *ts == NULL)
				*ts = (const char *)v->data.scalar.value;
		} else
			errorjson_walk(doc, v, msg, ts);
	}
}

static long long
read_errorjson(struct source *src, int fd, struct notes *ns,
    source_line_fn fn, void *arg)
{
	struct buf b = BUF_INIT;
	char chunk[8192];
	ssize_t r;
	long long n;

	while ((r = read(fd, chunk, sizeof chunk)) > 0 && b.len < (1 << 20))
		buf_add(&b, chunk, (size_t)r);
	n = (long long)b.len;
	src->done = 1;
	source_errorjson(src, b.s ? b.s : "", b.len, ns, fn, arg);
	buf_release(&b);
	return n;
}

void
source_errorjson(struct source *src, const char *text, size_t len, struct notes *ns,
    source_line_fn fn, void *arg)
{
	struct buf line = BUF_INIT;
	yaml_parser_t parser;
	yaml_document_t doc;
	const char *msg = NULL, *ts = NULL;

	if (source_reader(src) == NULL)	/* retired */
		return;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		notes_add(ns, NOTE_WARN, src->where.name, parser.problem_mark.line + 1,
		    parser.problem_mark.column + 1, "error.json is not valid JSON: %s",
		    parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return;
	}
	errorjson_walk(&doc, yaml_document_get_root_node(&doc), &msg, &ts);
	if (msg != NULL) {
		struct stamp s = { 0, 0, 0 };
		const char *p = msg, *nl;
		char when[40];

		if (ts != NULL && strtoll(ts, NULL, 10) > 0)
			stamp_from_epoch(strtoll(ts, NULL, 10), 0, &s);
		stamp_format(&s, 1, when, sizeof when);
		for (;;) {
			nl = strchr(p, '\n');
			buf_clear(&line);
			if (p == msg && (s.flags & STAMP_TIME))
				buf_printf(&line, "[%s] ", when);
			buf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
			emit(src, line.s, line.len, 0, fn, arg, 0, 1);
			if (nl == NULL || src->rd->lineno >= ERRORJSON_LINES)
				break;
			p = nl + 1;
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	buf_release(&line);
}

/* The file cannot be read now (what failed, and code: an errno value, or
 * SOURCE_NOT_REGULAR): noted when the reason is new, not on every poll. */
static void
failure(struct source *src, struct notes *ns, int code, const char *what)
{
	if (src->failed != code) {
		if (code == SOURCE_NOT_REGULAR)
			notes_add(ns, NOTE_ERROR, src->where.name, 0, 0,
			    "not a regular file; skipped");
		else
			notes_add(ns, NOTE_ERROR, src->where.name, 0, 0, "%s: %s", what,
			    strerror(code));
	}
	src->failed = (int16_t)code;	/* (an errno value: small) */
}

/* The file was replaced or truncated: read it again from the top. */
static void
restart(struct source *src, struct notes *ns, const char *why)
{
	notes_add(ns, NOTE_INFO, src->where.name, 0, 0, "%s", why);
	src->rd->offset = 0;
	src->rd->carrylen = 0;
	src->rd->skipping = 0;
	src->rd->midline = 0;
	src->rd->headlen = 0;
	src->rd->lineno = 0;
}

/* Do the file's first bytes still read as they did? */
static int
head_changed(const struct source *src, int fd)
{
	unsigned char now[SOURCE_HEAD];
	ssize_t n;

	if (src->rd->headlen == 0 || src->rd->offset + src->rd->carrylen == 0)
		return 0;
	n = pread(fd, now, src->rd->headlen, 0);
	return n != (ssize_t)src->rd->headlen ||
	    fnv1a(FNV1A_INIT, now, src->rd->headlen) != src->rd->headhash;
}

long long
source_read(struct source *src, char *buf, struct notes *ns,
    source_line_fn fn, void *arg)
{
	return source_read_some(src, buf, ns, 0, NULL, NULL, fn, arg);
}

void
source_unhold(struct srchold *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	h->src = NULL;
}

long long
source_read_some(struct source *src, char *buf, struct notes *ns,
    uint64_t budget, int *more, struct srchold *hold, source_line_fn fn, void *arg)
{
	struct stat sb;
	char pbuf[PATH_MAX];
	const char *path;
	long long total = 0;
	uint64_t size = 0;	/* a file's, when opened */
	ssize_t r;
	int fd;

	if (more != NULL)
		*more = 0;
	if (hold != NULL && hold->fd >= 0 && hold->src != src)
		source_unhold(hold);
	if (src->done || src->skipped || source_reader(src) == NULL) {	/* NULL: retired */
		if (hold != NULL)
			source_unhold(hold);
		return 0;
	}
	if (hold != NULL && hold->fd >= 0) {	/* the same read, going on */
		fd = hold->fd;
		size = hold->size;
		hold->fd = -1;
		hold->src = NULL;
		goto read;
	}
	path = event_where_path(&src->where, pbuf, sizeof pbuf);
	/* Unchanged since the last read (same file, same size, same mtime):
	 * a stat is cheaper than an open, for polling thousands of files. */
	if (src->kind == SOURCE_LOG && src->rd->ino != 0 && path != NULL && stat(path, &sb) == 0 &&
	    sb.st_ino == src->rd->ino && sb.st_dev == src->rd->dev &&
	    (uint64_t)sb.st_size == src->rd->offset + src->rd->carrylen &&
	    (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec == src->rd->mtime_ns &&
	    !src->rd->skipping)
		return 0;
	if (SOURCE_IS_STREAM(src))
		fd = src->st->fd;
	else if ((fd = path == NULL ? (errno = ENAMETOOLONG, -1) :
	    open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0) {
		failure(src, ns, errno, "cannot open");
		return -1;
	}
	if (fstat(fd, &sb) != 0) {
		failure(src, ns, errno, "cannot stat");
		goto out;
	}
	if (!SOURCE_IS_STREAM(src)) {
		if (!S_ISREG(sb.st_mode)) {
			failure(src, ns, SOURCE_NOT_REGULAR, NULL);
			total = -1;
			goto out;
		}
		if (src->failed != 0) {
			notes_add(ns, NOTE_INFO, src->where.name, 0, 0, "readable again");
			src->failed = 0;
		}
		if (src->rd->ino != 0 && (sb.st_ino != src->rd->ino || sb.st_dev != src->rd->dev)) {
			/* the file read so far may live on under another name */
			src->rd->prev_dev = src->rd->dev;
			src->rd->prev_ino = src->rd->ino;
			src->rd->prev_offset = src->rd->offset;
			restart(src, ns, "replaced by a new file (rotation); reading it from the top");
		}
		else if ((uint64_t)sb.st_size < src->rd->offset + src->rd->carrylen ||
		    head_changed(src, fd))
			/* copytruncate: shorter now, or emptied and written past
			 * where we were (then its first bytes differ) */
			restart(src, ns, "truncated; reading it again from the top");
		src->rd->dev = sb.st_dev;
		src->rd->ino = sb.st_ino;
		size = (uint64_t)sb.st_size;
		src->opened = 1;
		src->rd->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
		if (src->rd->offset == 0 && src->rd->lineno == 0 && !src->rd->ls.anchor_dated)
			src->rd->ls.anchor = local_mtime(&sb);
		if (src->kind == SOURCE_ERRORJSON) {
			total = read_errorjson(src, fd, ns, fn, arg);
			goto out;
		}
		if (size == src->rd->offset + src->rd->carrylen)
			goto out;
		if (src->rd->offset + src->rd->carrylen > 0 &&
		    lseek(fd, (off_t)(src->rd->offset + src->rd->carrylen), SEEK_SET) < 0) {
			failure(src, ns, errno, "cannot seek");
			total = -1;
			goto out;
		}
		/* (for more than a read: a syscall less for each small file) */
		if (size - (src->rd->offset + src->rd->carrylen) > SOURCE_CHUNK)
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
read:
	for (;;) {
		uint64_t base = src->rd->offset + src->rd->carrylen;

		r = read(fd, buf, SOURCE_CHUNK);
		if (r < 0 && errno == EINTR)
			break;	/* a signal: the caller decides (SIGINT on a pipe that never ends) */
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (r < 0) {
			notes_add(ns, NOTE_ERROR, src->where.name, this_line(src), 0,
			    "read error: %s", strerror(errno));
			src->failed = (int16_t)(errno ? errno : EIO);
			break;
		}
		if (r == 0) {
			if (SOURCE_IS_STREAM(src))
				stream_end(src, ns);
			break;
		}
		if (base == 0 && looks_binary(buf, (size_t)r)) {
			notes_add(ns, NOTE_WARN, src->where.name, 0, 0,
			    "binary data (NUL bytes in the first 4 KiB); skipped");
			src->skipped = 1;
			total += r;
			break;
		}
		if (base == 0 && looks_like_report(buf, (size_t)r)) {
			notes_add(ns, NOTE_WARN, src->where.name, 0, 0,
			    "a rankwatch report (by its first line), not a log; skipped");
			src->skipped = 1;
			total += r;
			break;
		}
		if (base < SOURCE_HEAD && src->rd->headlen == base) {
			size_t k = SOURCE_HEAD - (size_t)base < (size_t)r ?
			    SOURCE_HEAD - (size_t)base : (size_t)r;

			src->rd->headhash = fnv1a(base == 0 ? FNV1A_INIT : src->rd->headhash, buf, k);
			src->rd->headlen += k;
		}
		if (!src->noted_nul && memchr(buf, '\0', (size_t)r) != NULL) {
			src->noted_nul = 1;
			notes_add(ns, NOTE_INFO, src->where.name, 0, 0,
			    "contains NUL bytes (a block a crash left unwritten?); each run of them "
			    "ends the text before it, and the text around them is read");
		}
		total += r;
		if (src->st != NULL && src->st->spool_fd >= 0 && !src->st->spool_full)
			spool(src, buf, (size_t)r, ns);
		if (src->rd->chunk_fn != NULL)
			src->rd->chunk_fn(arg, src, buf, (size_t)r);
		source_feed(src, buf, (size_t)r, ns, fn, arg);
		if (budget != 0 && (uint64_t)total >= budget) {
			/* more to read, unless the file was read to the size it
			 * had when opened (as below): a file of exactly the budget
			 * takes one batch, not a second, empty one */
			if (more != NULL && (SOURCE_IS_STREAM(src) ||
			    base + (uint64_t)r < size))
				*more = 1;
			break;
		}
		/* a file read to the size it had when opened, in less than a
		 * chunk: its end for now, without a read that says so (what
		 * was written since is read next time, as after an end) */
		if (!SOURCE_IS_STREAM(src) && (size_t)r < SOURCE_CHUNK &&
		    base + (uint64_t)r >= size)
			break;
	}
out:
	if (!SOURCE_IS_STREAM(src) && fd >= 0) {
		if (hold != NULL && more != NULL && *more && total >= 0) {
			/* the next read of this pass goes on from here: no
			 * open, stat and seek again (a round trip each on NFS) */
			hold->src = src;
			hold->fd = fd;
			hold->size = size;
		} else
			close(fd);
	}
	if (src->rd->carrylen == 0 && src->rd->carrycap > 0) {	/* thousands of files */
		free(src->rd->carry);
		src->rd->carry = NULL;
		src->rd->carrycap = 0;
	}
	return total;
}

const char *
source_host(struct source *src, const char *h, size_t n)
{
	size_t i;

	for (i = src->rd->nhosts; i > 0; i--)	/* the newest is the usual one */
		if (strncmp(src->rd->hosts[i - 1], h, n) == 0 && src->rd->hosts[i - 1][n] == '\0')
			return src->rd->hosts[i - 1];
	src->rd->hosts = xrealloc(src->rd->hosts, (src->rd->nhosts + 1) * sizeof *src->rd->hosts);
	src->rd->hosts[src->rd->nhosts] = xstrndup(h, n);
	return src->rd->hosts[src->rd->nhosts++];
}

int
source_first_of_rank(struct source *src, int rank)
{
	size_t lo = 0, hi = src->rd->nkept;

	if (src->rd->nkept > 0 && src->rd->kept_ranks[src->rd->nkept - 1] < rank)
		lo = src->rd->nkept;	/* ranks come in order in most files */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (src->rd->kept_ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < src->rd->nkept && src->rd->kept_ranks[lo] == rank)
		return 0;
	XGROW(src->rd->kept_ranks, src->rd->capkept, src->rd->nkept + 1);
	memmove(src->rd->kept_ranks + lo + 1, src->rd->kept_ranks + lo,
	    (src->rd->nkept - lo) * sizeof *src->rd->kept_ranks);
	src->rd->kept_ranks[lo] = rank;
	src->rd->nkept++;
	return 1;
}
