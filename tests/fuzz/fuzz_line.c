/* fuzz_line.c: line_parse over every line of the input with one linestate,
 * as a source hands a file's lines over; and the timestamp parsers on the
 * raw bytes. Each line is an exact-size copy, so a read past its end is
 * seen. What line.h promises is checked: msg and host lie inside raw. */
#include "config.h"

#include "fuzz.h"

#include "line.h"
#include "source.h"
#include "stamp.h"

static void
check_civil(const char *p, size_t n, size_t got, const struct civil *c)
{
	struct stamp s;
	struct civil cc = *c, back;
	char out[64];

	(void)p;
	FZ_CHECK(got <= n);
	if (got == 0)
		return;
	if (cc.year == 0)
		stamp_resolve_year(&cc, 0);
	memset(&s, 0, sizeof s);
	if (stamp_from_civil(&cc, &s) == 0) {
		s.flags |= STAMP_TIME;
		stamp_format(&s, 1, out, sizeof out);
		FZ_CHECK(memchr(out, '\0', sizeof out) != NULL);
		stamp_to_civil(s.sec, &back);
	}
}

static void
stamps(const char *p, size_t n)
{
	struct civil c;
	size_t got;

	memset(&c, 0, sizeof c);
	got = stamp_parse_iso(p, n, &c);
	check_civil(p, n, got, &c);
	memset(&c, 0, sizeof c);
	got = stamp_parse_hms(p, n, &c);
	check_civil(p, n, got, &c);
	memset(&c, 0, sizeof c);
	got = stamp_parse_torchrun(p, n, &c);
	check_civil(p, n, got, &c);
}

static int
inside(const char *raw, size_t rawlen, const char *p, size_t n)
{
	return p >= raw && (size_t)(p - raw) <= rawlen && n <= rawlen - (size_t)(p - raw);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data, *nl;
	struct linestate st;
	struct line ln;
	size_t off = 0;
	unsigned long lineno = 0;
	char *whole, out[64];

	/* the stamp parsers on the raw bytes */
	whole = fz_copy(data, size);
	stamps(whole, size);
	free(whole);

	linestate_init(&st, -1, -1, 0);
	while (off < size) {
		size_t len;
		char *raw;

		nl = memchr(d + off, '\n', size - off);
		len = nl ? (size_t)(nl - (d + off)) : size - off;
		/* a source hands over at most SOURCE_LINE_MAX bytes of a line */
		raw = fz_copy(d + off, len > SOURCE_LINE_MAX ? SOURCE_LINE_MAX : len);
		if (len > SOURCE_LINE_MAX)
			len = SOURCE_LINE_MAX;
		memset(&ln, 0, sizeof ln);
		ln.lineno = ++lineno;
		ln.offset = off;
		line_parse(&st, raw, len, &ln);
		/* a record spliced into the line ends it there (the rest is
		 * read as a line of its own, core/scan.c) */
		FZ_CHECK(ln.raw == raw && ln.rawlen == (ln.splice != 0 ? ln.splice : len));
		FZ_CHECK(ln.splice == 0 || (ln.splice > 0 && ln.splice < len));
		FZ_CHECK(ln.msg != NULL && inside(raw, len, ln.msg, ln.msglen));
		FZ_CHECK(ln.host == NULL || inside(raw, len, ln.host, ln.hostlen));
		FZ_CHECK(ln.rank >= -1);
		FZ_CHECK(rank_from_name(ln.rank_from) != NULL);
		stamp_format(&ln.ts, 1, out, sizeof out);
		stamps(raw, len);
		free(raw);
		off += (nl ? (size_t)(nl - (d + off)) + 1 : size - off);
	}
	return 0;
}
