/* test_source.c: incremental reading of real files. */
#include "config.h"

#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>

#include "source.h"
#include "strset.h"

struct got {
	char	lines[64][128];
	int	n;
	int	truncated;
	size_t	lastlen;
	uint64_t offsets[64];
	unsigned long linenos[64];
};

static void
collect(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct got *g = arg;

	(void)src;
	if (g->n < 64) {
		g->linenos[g->n] = lineno;
		snprintf(g->lines[g->n], sizeof g->lines[g->n], "%.*s",
		    (int)(len < 100 ? len : 100), text);
		g->offsets[g->n] = offset;
	}
	g->n++;
	g->lastlen = len;
	g->truncated += truncated;
}

static char buf[SOURCE_CHUNK];

static void
test_incremental_and_partial(void **state)
{
	char *dir = tu_tmpdir(), *path;
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };

	(void)state;
	notes_init(&ns);
	path = tu_write(dir, "rank0.log", "one\ntwo\nthr", 11, 0);
	s = source_new(path, "rank0.log", SOURCE_LOG, 0, -1, 0);
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 11);
	assert_int_equal(g.n, 2);	/* "thr" waits for its newline */
	assert_int_equal(s->rd->offset, 8);
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 0);
	TU_APPEND(dir, "rank0.log", "ee\r\nfour\n");
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 9);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.linenos[3], 4);
	assert_string_equal(g.lines[2], "three");	/* CRLF trimmed */
	assert_int_equal(g.offsets[2], 8);
	assert_int_equal(g.offsets[3], 15);
	TU_APPEND(dir, "rank0.log", "tail");
	source_read(s, buf, &ns, collect, &g);
	source_flush(s, collect, &g);
	assert_int_equal(g.n, 5);
	assert_string_equal(g.lines[4], "tail");
	assert_int_equal(ns.n, 0);
	source_free(s);
	free(path);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* A followed file's reading state sleeps between reads, and wakes as it
 * was: byte for byte, with its kept ranks and hosts, its partial line,
 * and what rotation and the log view read of it while it sleeps. */
static void
test_sleep_wakes_as_it_was(void **state)
{
	char *dir = tu_tmpdir(), *path;
	struct notes ns;
	struct source *s;
	struct source_file_id id;
	struct srcread before, after;
	struct got g = { .n = 0 };
	int64_t anchor;
	int dated;

	(void)state;
	notes_init(&ns);
	path = tu_write(dir, "rank3.log", "2024-12-18 19:02:11 one\ntwo\nthr", 31, 0);
	s = source_new(path, "rank3.log", SOURCE_LOG, 3, 0, 8);
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 31);
	assert_int_equal(g.n, 2);
	(void)source_host(s, "gpu-a1", 6);
	(void)source_host(s, "gpu-b22", 7);
	assert_true(source_first_of_rank(s, 3));
	assert_true(source_first_of_rank(s, 1));
	assert_false(source_first_of_rank(s, 3));
	memcpy(&before, s->rd, sizeof before);
	assert_int_equal(before.nkept, 2);
	assert_int_equal(before.carrylen, 3);	/* "thr" */

	source_sleep(s);
	assert_null(s->rd);
	assert_non_null(s->asleep);
	assert_true(source_file_id(s, &id));
	assert_true(id.ino == before.ino && id.dev == before.dev && id.prev_ino == 0);
	assert_true(source_anchor(s, &anchor, &dated));
	assert_true(anchor == before.ls.anchor && dated == before.ls.anchor_dated);

	assert_non_null(source_reader(s));
	assert_null(s->asleep);
	memcpy(&after, s->rd, sizeof after);
	assert_int_equal(after.nkept, 2);
	assert_int_equal(after.kept_ranks[0], 1);
	assert_int_equal(after.kept_ranks[1], 3);
	assert_int_equal(after.nhosts, 2);
	assert_string_equal(after.hosts[0], "gpu-a1");
	assert_string_equal(after.hosts[1], "gpu-b22");
	/* the rest is what it was, byte for byte */
	before.kept_ranks = after.kept_ranks;
	before.hosts = after.hosts;
	before.capkept = after.capkept;
	assert_memory_equal(&before, &after, sizeof before);
	assert_false(source_first_of_rank(s, 1));
	assert_true(source_host(s, "gpu-b22", 7) == after.hosts[1]);

	/* asleep again: the next read wakes it and finishes the line */
	source_sleep(s);
	TU_APPEND(dir, "rank3.log", "ee\nfour\n");
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 8);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.lines[2], "three");
	assert_int_equal(g.linenos[3], 4);
	assert_int_equal(g.offsets[3], 34);
	assert_int_equal(ns.n, 0);
	/* freed asleep: nothing leaks (the sanitizer build says) */
	source_sleep(s);
	source_free(s);
	free(path);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* Files under one folder keep the folder once (source_new_in): each has
 * its name, and its path is made of the two when it is opened. */
static void
test_folder_kept_once(void **state)
{
	char *dir = tu_tmpdir(), *a, *b, pbuf[PATH_MAX];
	struct strset dirs = STRSET_INIT;
	struct notes ns;
	struct source *s, *t;
	struct got g = { .n = 0 };

	(void)state;
	notes_init(&ns);
	a = tu_write(dir, "rank0.log", "zero\n", 5, 0);
	b = tu_write(dir, "rank1.log", "one\n", 4, 0);
	s = source_new_in(&dirs, a, "rank0.log", SOURCE_LOG, 0, -1, 0);
	t = source_new_in(&dirs, b, "rank1.log", SOURCE_LOG, 1, -1, 0);
	assert_true(event_where_in_dir(&s->where));
	assert_ptr_equal(s->where.base, t->where.base);
	assert_string_equal(s->where.name, "rank0.log");
	assert_string_equal(source_path(s, pbuf, sizeof pbuf), a);
	assert_string_equal(source_reread_path(t, pbuf, sizeof pbuf), b);
	assert_null(source_path(s, pbuf, 8));	/* too long for the room */
	assert_int_equal(source_read(s, buf, &ns, collect, &g), 5);
	assert_int_equal(source_read(t, buf, &ns, collect, &g), 4);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.lines[1], "one");
	/* a name that is not the path's end: the whole path */
	source_free(t);
	t = source_new_in(&dirs, b, "other.log", SOURCE_LOG, 1, -1, 0);
	assert_false(event_where_in_dir(&t->where));
	assert_string_equal(t->where.base, b);
	assert_int_equal(ns.n, 0);
	source_free(s);
	source_free(t);
	strset_release(&dirs);
	free(a);
	free(b);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_truncation_and_rotation(void **state)
{
	char *dir = tu_tmpdir(), *path, *other;
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };

	(void)state;
	notes_init(&ns);
	path = tu_write(dir, "a.log", "aaaa\nbbbb\n", 10, 0);
	s = source_new(path, "a.log", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 2);
	/* copytruncate: the same file, shorter */
	assert_int_equal(truncate(path, 0), 0);
	TU_APPEND(dir, "a.log", "c\n");
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.lines[2], "c");
	assert_non_null(strstr(ns.v[ns.n - 1].text, "truncated"));
	/* emptied and written past where we were: the first bytes differ */
	assert_int_equal(truncate(path, 0), 0);
	TU_APPEND(dir, "a.log", "a much longer first line than before\n");
	source_read(s, buf, &ns, collect, &g);
	assert_string_equal(g.lines[3], "a much longer first line than before");
	assert_int_equal(g.linenos[3], 1);	/* line numbers start again */
	assert_non_null(strstr(ns.v[ns.n - 1].text, "truncated"));
	g.n = 3;
	/* rotation: a new file under the same name */
	other = tu_write(dir, "b.log", "dddddddddddd\n", 13, 0);
	assert_int_equal(rename(other, path), 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.lines[3], "dddddddddddd");
	assert_non_null(strstr(ns.v[ns.n - 1].text, "rotation"));
	/* deleted: a clear note, no crash */
	unlink(path);
	assert_int_equal(source_read(s, buf, &ns, collect, &g), -1);
	assert_non_null(strstr(ns.v[ns.n - 1].text, "cannot open"));
	source_free(s);
	free(path);
	free(other);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_huge_line_is_bounded(void **state)
{
	char *dir = tu_tmpdir(), *path, *big;
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };
	size_t n = 3 * SOURCE_CHUNK + 17;

	(void)state;
	notes_init(&ns);
	big = malloc(n + 6);
	memset(big, 'x', n);
	memcpy(big + n, "\nok\n", 5);
	path = tu_write(dir, "big.log", big, n + 4, 0);
	s = source_new(path, "big.log", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.truncated, 1);
	assert_string_equal(g.lines[1], "ok");
	assert_int_equal(g.offsets[1], n + 1);
	assert_int_equal(ns.n, 1);
	assert_int_equal(ns.v[0].line, 1);
	assert_non_null(strstr(ns.v[0].text, "longer than"));
	source_free(s);
	free(path);
	free(big);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_binary_nul_fifo(void **state)
{
	char *dir = tu_tmpdir(), *path, fifo[512];
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };
	char bin[4096];

	(void)state;
	notes_init(&ns);
	memset(bin, 0, sizeof bin);
	path = tu_write(dir, "ckpt.bin", bin, sizeof bin, 0);
	s = source_new(path, "ckpt.bin", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 0);
	assert_true(s->skipped);
	assert_non_null(strstr(ns.v[0].text, "binary"));
	source_free(s);
	free(path);
	/* a NUL run in a text log (a crash's unwritten block): the text around
	 * it is read, in two pieces of the one line, with its number */
	path = tu_write(dir, "nul.log", "a\nb\0c\nd\n", 8, 0);
	s = source_new(path, "nul.log", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.lines[1], "b");
	assert_string_equal(g.lines[2], "c");
	assert_int_equal(g.linenos[1], 2);
	assert_int_equal(g.linenos[2], 2);
	assert_int_equal(g.linenos[3], 3);
	assert_int_equal(g.offsets[2], 4);	/* "c" is at byte 4 */
	assert_int_equal(s->rd->offset, 8);
	assert_false(s->skipped);
	source_free(s);
	free(path);
	/* a FIFO with no writer must not block */
	snprintf(fifo, sizeof fifo, "%s/fifo.log", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	s = source_new(fifo, "fifo.log", SOURCE_LOG, 0, -1, 0);
	assert_int_equal(source_read(s, buf, &ns, collect, &g), -1);
	assert_non_null(strstr(ns.v[ns.n - 1].text, "not a regular file"));
	source_free(s);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* A file's head is text when no byte below space is there but tab, LF and
 * CR: UTF-8 (bytes above 0x7f) is text; control bytes sixteen at a time
 * and in the last few bytes of a short file are seen. */
static void
test_binary_heads(void **state)
{
	char *dir = tu_tmpdir(), *path, b[4096];
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };
	size_t i;

	(void)state;
	notes_init(&ns);
	for (i = 0; i < 39; i++)
		TU_APPEND(dir, "utf8.log", "gr\xc3\xbc\xc3\x9f dich \xe2\x80\x93 caf\xc3\xa9\tok\r\n");
	path = tu_write(dir, "utf8.log", "\xe2\x80\x94 the end\n", 12, 1);
	s = source_new(path, "utf8.log", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_false(s->skipped);
	assert_int_equal(g.n, 40);
	source_free(s);
	free(path);
	memset(b, 'a', sizeof b);
	for (i = 7; i < sizeof b; i += 20)
		b[i] = '\001';
	path = tu_write(dir, "ctl.bin", b, sizeof b, 0);
	s = source_new(path, "ctl.bin", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_true(s->skipped);
	source_free(s);
	free(path);
	/* 25 bytes: the control bytes are past the first sixteen */
	path = tu_write(dir, "tail.bin", "aaaaaaaaaaaaaaaaaaaa\002\002\002\002\n", 25, 0);
	s = source_new(path, "tail.bin", SOURCE_LOG, 0, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_true(s->skipped);
	source_free(s);
	free(path);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_errorjson(void **state)
{
	char *dir = tu_tmpdir(), *path;
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };
	const char *j = "{\"message\": {\"message\": \"RuntimeError: CUDA error: an illegal "
	    "memory access was encountered\\nsecond line\", \"extraInfo\": {\"py_callstack\": "
	    "\"Traceback\", \"timestamp\": \"1718569474\"}}}";

	(void)state;
	notes_init(&ns);
	path = tu_write(dir, "error.json", j, strlen(j), 0);
	s = source_new(path, "error.json", SOURCE_ERRORJSON, 3, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.lines[0], "[2024-06-16 20:24:34] RuntimeError: CUDA error: an illegal memory access was encountered");
	assert_string_equal(g.lines[1], "second line");
	source_free(s);
	free(path);
	path = tu_write(dir, "error.json", "{\"message\": [", 13, 0);
	s = source_new(path, "error.json", SOURCE_ERRORJSON, 3, -1, 0);
	source_read(s, buf, &ns, collect, &g);
	assert_int_equal(g.n, 2);
	assert_non_null(strstr(ns.v[ns.n - 1].text, "not valid JSON"));
	source_free(s);
	free(path);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* Read with a budget: a file read to its size when opened is at its end,
 * even when that size is the budget (no second, empty read is asked for);
 * a longer one has more. */
static void
test_budget_end(void **state)
{
	char *dir = tu_tmpdir(), *path, text[4096];
	struct notes ns;
	struct source *s;
	struct got g = { .n = 0 };
	int more = -1;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof text; i++)
		text[i] = i % 64 == 63 ? '\n' : 'x';
	notes_init(&ns);
	path = tu_write(dir, "rank0.log", text, sizeof text, 0);
	s = source_new(path, "rank0.log", SOURCE_LOG, 0, -1, 0);
	assert_int_equal(source_read_some(s, buf, &ns, sizeof text, &more, NULL, collect, &g), sizeof text);
	assert_int_equal(more, 0);
	assert_int_equal(g.n, 64);
	source_free(s);
	free(path);
	path = tu_write(dir, "rank1.log", text, sizeof text, 0);
	s = source_new(path, "rank1.log", SOURCE_LOG, 1, -1, 0);
	g.n = 0;
	assert_int_equal(source_read_some(s, buf, &ns, 1024, &more, NULL, collect, &g), sizeof text);
	assert_int_equal(more, 0);	/* one chunk holds it all: read to its size */
	source_free(s);
	free(path);
	/* two chunks and a bit, a chunk at a time: more, more, then the end */
	{
		size_t big = 2 * SOURCE_CHUNK + sizeof text, off;
		char *t = malloc(big);
		int calls = 0;

		for (off = 0; off < big; off += sizeof text)
			memcpy(t + off, text, sizeof text);
		path = tu_write(dir, "rank2.log", t, big, 0);
		s = source_new(path, "rank2.log", SOURCE_LOG, 2, -1, 0);
		g.n = 0;
		do {
			assert_true(source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, NULL, collect, &g) > 0);
			calls++;
		} while (more);
		assert_int_equal(calls, 3);
		assert_int_equal(g.n, (int)(big / 64));
		source_free(s);
		free(path);
		free(t);
	}
	assert_int_equal(ns.n, 0);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* Descriptors this process has open. */
static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* A read with a budget and a hold leaves the file open for the next one,
 * which goes on where it stopped, up to the size the file had when opened
 * (what was written since is read by the next read from the top of the
 * checks); a read of another source closes it, and so does
 * source_unhold. The lines are those a read without a hold gives. */
static void
test_budget_hold(void **state)
{
	char *dir = tu_tmpdir(), *path, *other, line[80];
	size_t big = 3 * SOURCE_CHUNK, off, i;
	char *t = malloc(big);
	struct notes ns;
	struct source *s, *o;
	struct srchold h = { NULL, -1, 0 };
	struct got g = { .n = 0 };
	int more, calls = 0, fds;

	(void)state;
	for (off = 0; off < big; off += 64) {
		snprintf(line, sizeof line, "%063zu\n", off / 64);
		memcpy(t + off, line, 64);
	}
	notes_init(&ns);
	path = tu_write(dir, "rank0.log", t, big, 0);
	other = tu_write(dir, "rank1.log", "a line\n", 7, 0);
	s = source_new(path, "rank0.log", SOURCE_LOG, 0, -1, 0);
	o = source_new(other, "rank1.log", SOURCE_LOG, 1, -1, 0);
	fds = open_fds();
	assert_int_equal(source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, &h, collect, &g),
	    SOURCE_CHUNK);
	assert_int_equal(more, 1);
	assert_true(h.fd >= 0);
	assert_ptr_equal(h.src, s);
	assert_int_equal(open_fds(), fds + 1);
	TU_APPEND(dir, "rank0.log", "written after the open\n");
	do {
		assert_int_equal(source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, &h, collect,
		    &g), SOURCE_CHUNK);
		calls++;
	} while (more);
	assert_int_equal(calls, 2);	/* the size when opened: three chunks */
	assert_int_equal(h.fd, -1);	/* at the end: closed */
	assert_int_equal(open_fds(), fds);
	assert_int_equal(g.n, (int)(big / 64));
	for (i = 0; i < 64; i++)
		assert_int_equal(atoi(g.lines[i]), (int)i);
	assert_int_equal(source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, &h, collect, &g),
	    23);	/* the line written since, from a new open */
	assert_int_equal(g.n, (int)(big / 64) + 1);
	/* held, then another source read: closed first */
	source_free(s);
	s = source_new(path, "rank0.log", SOURCE_LOG, 0, -1, 0);
	g.n = 0;
	source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, &h, collect, &g);
	assert_true(h.fd >= 0);
	source_read_some(o, buf, &ns, SOURCE_CHUNK, &more, &h, collect, &g);
	assert_int_equal(h.fd, -1);
	assert_int_equal(open_fds(), fds);
	source_read_some(s, buf, &ns, SOURCE_CHUNK, &more, &h, collect, &g);
	assert_true(h.fd >= 0);
	source_unhold(&h);
	assert_int_equal(open_fds(), fds);
	assert_int_equal(ns.n, 0);
	source_free(s);
	source_free(o);
	free(path);
	free(other);
	free(t);
	notes_release(&ns);
	tu_rmdir(dir);
}

/* Lines of every length from 0 to 200 bytes, then of random lengths up to
 * 255 (every seventh ending in CRLF), fed
 * whole and in pieces cut at random: each comes out once, in order, with
 * its own bytes, offset and number, however the newlines fall against
 * the 64-byte blocks the splitter looks at. */
struct split {
	const char	*text;	/* what was fed, whole */
	const size_t	*start;	/* of each line */
	const size_t	*len;	/* without its newline (and CR) */
	size_t		 n, bad;
};

static void
split_check(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct split *sp = arg;

	(void)src;
	if (sp->n >= 4000 || truncated || lineno != sp->n + 1 || offset != sp->start[sp->n] ||
	    len != sp->len[sp->n] || memcmp(text, sp->text + offset, len) != 0)
		sp->bad++;
	sp->n++;
}

static void
test_lines_split_anywhere(void **state)
{
	static char text[4000 * 210];
	static size_t start[4000], len[4000];
	size_t n = 0, i, at;
	unsigned seed = 99;
	int pass;

	(void)state;
	for (i = 0; i < 4000; i++) {
		size_t l = i < 201 ? i : (seed = seed * 1103515245u + 12345u) >> 16 & 255;
		size_t k;

		start[i] = n;
		for (k = 0; k < l; k++)
			text[n++] = (char)('a' + (k + i) % 26);
		len[i] = l;
		if (l > 0 && i % 7 == 0) {
			text[n - 1] = '\r';	/* CRLF: the CR is not the line's */
			len[i]--;
		}
		text[n++] = '\n';
	}
	for (pass = 0; pass < 2; pass++) {
		struct notes ns;
		struct source *s = source_new("/nonexistent/rank0.log", "rank0.log", SOURCE_LOG, 0, -1, 0);
		struct split sp = { text, start, len, 0, 0 };

		notes_init(&ns);
		for (at = 0; at < n;) {
			size_t piece = pass == 0 ? n : 1 + ((seed = seed * 1103515245u + 12345u) >> 16) % 300;

			if (piece > n - at)
				piece = n - at;
			source_feed(s, text + at, piece, &ns, split_check, &sp);
			at += piece;
		}
		assert_int_equal(sp.n, 4000);
		assert_int_equal(sp.bad, 0);
		assert_int_equal(ns.n, 0);
		source_free(s);
		notes_release(&ns);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental_and_partial),
		cmocka_unit_test(test_sleep_wakes_as_it_was),
		cmocka_unit_test(test_folder_kept_once),
		cmocka_unit_test(test_truncation_and_rotation),
		cmocka_unit_test(test_huge_line_is_bounded),
		cmocka_unit_test(test_binary_nul_fifo),
		cmocka_unit_test(test_binary_heads),
		cmocka_unit_test(test_errorjson),
		cmocka_unit_test(test_lines_split_anywhere),
		cmocka_unit_test(test_budget_end),
		cmocka_unit_test(test_budget_hold),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
