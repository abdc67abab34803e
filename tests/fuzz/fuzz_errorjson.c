/* fuzz_errorjson.c: a torchrun error.json's text, through
 * source_errorjson (what a source does with the file once read): the
 * message comes out as lines with no newline in them, at most
 * ERRORJSON_LINES of them, each one line_parse can take; text that is not
 * JSON gives a note. fuzz_pipeline reads error.json files too, through
 * discovery and the whole engine. */
#include "config.h"

#include "fuzz.h"

#include "source.h"

struct seen {
	unsigned long	lines;
};

static void
on_line(void *arg, struct source *src, const char *text, size_t len,
    uint64_t offset, unsigned long lineno, int truncated)
{
	struct seen *s = arg;
	char *copy = fz_copy(text, len);
	struct line ln;

	(void)offset;
	(void)truncated;
	s->lines++;
	FZ_CHECK(lineno == s->lines);
	FZ_CHECK(memchr(text, '\n', len) == NULL);
	line_parse(&source_reader(src)->ls, copy, len, &ln);
	FZ_CHECK(ln.msg >= copy && ln.msg + ln.msglen <= copy + len);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct source *src = source_new("error.json", "0/error.json", SOURCE_ERRORJSON,
	    0, -1, 0);
	struct seen s = { 0 };
	struct notes ns;

	notes_init(&ns);
	source_errorjson(src, text, size, &ns, on_line, &s);
	FZ_CHECK(s.lines <= ERRORJSON_LINES);
	notes_release(&ns);
	source_free(src);
	free(text);
	return 0;
}
