/* fuzz_source.c: a log's bytes cut into lines by source_feed, the way
 * source_read cuts each chunk it reads. The input is fed twice: whole, and
 * in the pieces its first bytes ask for (down to one byte: a pipe, or a
 * file another host appends to a little at a time). Both must give the
 * same lines, offsets, numbers and truncation marks, with no newline or
 * NUL inside a line, no line longer than SOURCE_LINE_MAX, each line's bytes
 * where its offset says they are, and every byte accounted for. The first
 * byte sets the longest line kept whole (line_max, SOURCE_LINE_MAX in a
 * run) to 1..256 bytes, so the over-long line path is taken too. */
#include "config.h"

#include "fuzz.h"

#include "buf.h"
#include "source.h"

struct lines {
	struct buf	 all;		/* "offset lineno truncated len:" + text, per line */
	const char	*data;		/* the whole input */
	size_t		 size;
	size_t		 line_max;
};

static void
on_line(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct lines *l = arg;

	(void)src;
	FZ_CHECK(len <= l->line_max);
	FZ_CHECK(memchr(text, '\n', len) == NULL);
	FZ_CHECK(memchr(text, '\0', len) == NULL);	/* NUL runs end pieces */
	FZ_CHECK(offset + len <= l->size);
	/* the line is the file's bytes at its offset */
	FZ_CHECK(len == 0 || memcmp(l->data + offset, text, len) == 0);
	buf_printf(&l->all, "%llu %lu %d %zu:", (unsigned long long)offset, lineno,
	    truncated, len);
	buf_add(&l->all, text, len);
	buf_addc(&l->all, '\n');
}

/* Feed p[0..n): whole (cuts NULL), a byte at a time (ncuts 0), or in
 * pieces of cuts[k] + 1 bytes in turn (a cut of 0xf0 and up: that many
 * 4 KiB, now and then a big one). */
static void
feed_all(const char *p, size_t n, const uint8_t *cuts, size_t ncuts, struct lines *l,
    unsigned long *nlines, uint64_t *offset)
{
	struct source *src = source_new("x.log", "x.log", SOURCE_LOG, 0, -1, 0);
	struct notes ns;
	size_t at = 0, k = 0, piece;

	source_reader(src)->line_max = l->line_max;
	notes_init(&ns);
	while (at < n) {
		if (cuts == NULL)
			piece = n - at;
		else if (ncuts == 0)
			piece = 1;
		else {
			uint8_t c = cuts[k++ % ncuts];

			piece = c >= 0xf0 ? (size_t)(c - 0xef) * 4096 : (size_t)c + 1;
		}
		if (piece > n - at)
			piece = n - at;
		source_feed(src, p + at, piece, &ns, on_line, l);
		at += piece;
	}
	source_flush(src, on_line, l);
	*nlines = src->rd->lineno;
	*offset = src->rd->offset;
	source_free(src);
	notes_release(&ns);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lines whole = { BUF_INIT, NULL, 0, 0 }, cut = { BUF_INIT, NULL, 0, 0 };
	size_t ncuts, n, i;
	unsigned long nl1, nl2;
	uint64_t off1, off2;
	char *text;

	if (size < 2)
		return 0;
	ncuts = data[1] % 8;
	if (size < 2 + ncuts)
		return 0;
	n = size - 2 - ncuts;
	text = fz_copy(data + 2 + ncuts, n);
	whole.data = cut.data = text;
	whole.size = cut.size = n;
	whole.line_max = cut.line_max = (size_t)data[0] + 1;
	feed_all(text, n, NULL, 0, &whole, &nl1, &off1);
	feed_all(text, n, data + 2, ncuts, &cut, &nl2, &off2);
	if (whole.all.len != cut.all.len || (whole.all.len > 0 &&
	    memcmp(whole.all.s, cut.all.s, whole.all.len) != 0)) {
		for (i = 0; i < whole.all.len && i < cut.all.len &&
		    whole.all.s[i] == cut.all.s[i]; i++)
			;
		fprintf(stderr, "fuzz_source: the lines differ at byte %zu of the listing:\n"
		    "whole: %.80s\ncut:   %.80s\n", i, whole.all.s ? whole.all.s + i : "",
		    cut.all.s ? cut.all.s + i : "");
		abort();
	}
	FZ_CHECK(nl1 == nl2);
	FZ_CHECK(off1 == off2);
	FZ_CHECK(off1 == n);	/* every byte taken, skipped or flushed */
	buf_release(&whole.all);
	buf_release(&cut.all);
	free(text);
	return 0;
}
