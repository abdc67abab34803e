/* fuzz_rules.c: a rule entry file's text, through rulebook_parse (what
 * rulebook_load_file does once it has read the file). When the entry
 * loads, a matcher is built over it and the prefilter must never hide a
 * match: for every signature and every
 * example, when the signature's regex matches the example's message, the
 * matcher must report the signature for that line. */
#include "config.h"

#include "fuzz.h"
#include "prefilter.h"

#include "line.h"
#include "matcher.h"
#include "rulebook.h"
#include "rulecheck.h"

static void
check_prefilter(const struct rulebook *rb, struct matcher *m)
{
	pcre2_match_context *mc = fz_limits();
	size_t i, j;

	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		pcre2_match_data *md;

		if (s->re == NULL)
			continue;
		/* prefilter literals the rule gives are the author's word; the
		 * property is about the ones the matcher finds itself */
		if (s->prefilter.n > 0)
			continue;
		md = pcre2_match_data_create_from_pattern(s->re, NULL);
		FZ_CHECK(md != NULL);
		for (j = 0; j < s->examples.n; j++) {
			const char *text = s->examples.v[j];
			size_t len = strlen(text);
			struct linestate ls;
			struct line ln;
			int code, found;

			linestate_init(&ls, -1, -1, 0);
			line_parse(&ls, text, len, &ln);
			if (fz_should_match(s, text, len, ln.msg, ln.msglen, md, mc) != 1)
				continue;
			(void)matcher_take_error(m, &code);
			found = rulecheck_reports(m, s, text);
			if (matcher_take_error(m, &code) != NULL)
				continue;	/* a regex gave up at the match limit */
			if (!found) {
				fprintf(stderr, "prefilter hides a match: signature %s, "
				    "pattern '%s', example '%s'\n",
				    s->fullid ? s->fullid : "?", s->pattern, text);
				abort();
			}
		}
		pcre2_match_data_free(md);
	}
	pcre2_match_context_free(mc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct rulebook *rb = rulebook_new();
	struct notes ns;

	notes_init(&ns);
	if (rulebook_parse(rb, "fuzz-entry.yaml", text, size, &ns) == 0) {
		struct matcher *m;

		rulebook_finish(rb, &ns);
		m = matcher_new(rb);
		check_prefilter(rb, m);
		matcher_free(m);
	}
	rulebook_free(rb);
	notes_release(&ns);
	free(text);
	return 0;
}
