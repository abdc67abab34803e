/* fuzz_matcher.c: log lines through the shipped rulebook's matcher, tuned
 * once (on the rules' own examples), as a run uses it. For every line,
 * matcher_match must report exactly the signatures whose regex matches
 * the line's message (and whose requires: the line holds), save those
 * whose prefilter the rule's author gave (the author's word) and regexes
 * that gave up at the match limit; and it must report the same whether the
 * line is looked at alone or inside a block matcher_scan saw first. */
#include "config.h"

#include "pipeline.h"
#include "prefilter.h"

#include "line.h"

#define MAX_HITS	64

struct hits {
	const struct signature	*v[MAX_HITS];
	size_t			 n;
};

static void
on_match(void *arg, const struct signature *sig, const char *subject,
    const PCRE2_SIZE *ov)
{
	struct hits *h = arg;

	(void)subject;
	(void)ov;
	FZ_CHECK(h->n < MAX_HITS);
	h->v[h->n++] = sig;
}

static int
reported(const struct hits *h, const struct signature *s)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->v[i] == s)
			return 1;
	return 0;
}

static void
check_line(const struct rulebook *rb, const char *line, size_t len,
    const struct line *ln, const struct hits *got, pcre2_match_data *md,
    pcre2_match_context *mc)
{
	size_t i;
	int other = 0;	/* a signature that is no fallback was reported */

	for (i = 0; i < got->n; i++)
		other |= !got->v[i]->fallback;
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		int want = fz_should_match(s, line, len, ln->msg, ln->msglen, md, mc);

		if (want < 0)
			continue;	/* gave up: so may the matcher */
		/* (a signature with a level runs only on lines of that level) */
		if (s->level != 0 && ln->sev != 'F' && !(s->level == 'E' && ln->sev == 'E'))
			want = 0;
		if (want && s->fallback && other)
			continue;	/* another one read the line */
		if (want && signature_is_lone(s) && got->n > 0 && !reported(got, s))
			continue;	/* ... or another catch-all did, which runs before */
		if (want && !reported(got, s) && s->prefilter.n == 0) {
			fprintf(stderr, "fuzz_matcher: the prefilter hides a match of %s "
			    "('%s') on: %.*s\n", s->fullid, s->pattern, (int)len, line);
			abort();
		}
		if (!want && reported(got, s)) {
			fprintf(stderr, "fuzz_matcher: %s reported, but its regex does not "
			    "match: %.*s\n", s->fullid, (int)len, line);
			abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rulebook *rb = fz_rules();
	struct matcher *m = fz_matcher();
	static pcre2_match_data *md;
	static pcre2_match_context *mc;
	char *text = fz_copy(data, size);
	const char *p = text, *end = text + size, *nl;
	struct linestate ls;
	int code, lines = 0;

	if (md == NULL) {
		md = pcre2_match_data_create(64, NULL);
		mc = fz_limits();
	}
	linestate_init(&ls, -1, -1, 0);
	matcher_scan(m, text, size);
	for (; p < end && lines < 64; p = nl + 1, lines++) {
		struct hits inblock = { { NULL }, 0 }, alone = { { NULL }, 0 };
		char *copy;
		struct line ln;
		size_t len, i;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		len = (size_t)(nl - p);
		line_parse(&ls, p, len, &ln);
		(void)matcher_take_error(m, &code);
		matcher_match(m, p, len, ln.msg, ln.msglen, ln.sev, ln.rank >= 0, on_match, &inblock);
		if (matcher_take_error(m, &code) != NULL)
			continue;
		/* the same line alone (a copy, outside the block): the block's
		 * findings are kept apart, so the next line still takes them */
		copy = fz_copy(p, len);
		{
			struct line lc = ln;

			lc.msg = copy + (ln.msg - p);
			matcher_match(m, copy, len, lc.msg, lc.msglen, lc.sev, lc.rank >= 0, on_match, &alone);
			FZ_CHECK(alone.n == inblock.n);
			for (i = 0; i < alone.n; i++)
				FZ_CHECK(alone.v[i] == inblock.v[i]);
			check_line(rb, copy, len, &lc, &alone, md, mc);
		}
		free(copy);
	}
	matcher_scan(m, NULL, 0);
	free(text);
	return 0;
}
