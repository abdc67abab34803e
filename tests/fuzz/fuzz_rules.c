/* fuzz_rules.c: a rule entry file. The bytes are written to NAME.yaml in a
 * fresh folder and loaded; when the entry loads, a matcher is built over it
 * and the prefilter must never hide a match: for every signature and every
 * example, when the signature's regex matches the example's message, the
 * matcher must report the signature for that line. */
#include "config.h"

#include "fuzz.h"

#include "line.h"
#include "matcher.h"
#include "rulebook.h"
#include "rulecheck.h"

/* Does p[0..n) hold s, ASCII case folded? */
static int
has_folded(const char *p, size_t n, const char *s)
{
	size_t l = strlen(s), i, j;

	if (l == 0)
		return 1;
	for (i = 0; i + l <= n; i++) {
		for (j = 0; j < l; j++) {
			unsigned char a = (unsigned char)p[i + j], b = (unsigned char)s[j];

			if (a >= 'A' && a <= 'Z')
				a = (unsigned char)(a | 0x20);
			if (b >= 'A' && b <= 'Z')
				b = (unsigned char)(b | 0x20);
			if (a != b)
				break;
		}
		if (j == l)
			return 1;
	}
	return 0;
}

/* The same bounds as the matcher's, so a regex that gives up there gives
 * up here too. */
static pcre2_match_context *
limits(void)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	FZ_CHECK(mc != NULL);
	pcre2_set_match_limit(mc, 200000);
	pcre2_set_depth_limit(mc, 5000);
	pcre2_set_heap_limit(mc, 8192);
	return mc;
}

static void
check_prefilter(const struct rulebook *rb, struct matcher *m)
{
	pcre2_match_context *mc = limits();
	size_t i, j, k;

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
			int rc, code, req, found;

			linestate_init(&ls, -1, -1, 0);
			line_parse(&ls, text, len, &ln);
			rc = pcre2_match(s->re, (PCRE2_SPTR)ln.msg, ln.msglen, 0, 0, md, mc);
			if (rc < 0)
				continue;
			/* requires: one of its literals must be in the line too */
			req = s->requires.n == 0;
			for (k = 0; k < s->requires.n && !req; k++)
				req = has_folded(text, len, s->requires.v[k]);
			if (!req)
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
	char *dir = fz_tmpdir(), *path;
	struct rulebook *rb = rulebook_new();
	struct notes ns;

	notes_init(&ns);
	path = fz_write(dir, "fuzz-entry.yaml", data, size);
	if (rulebook_load_file(rb, path, &ns) == 0) {
		struct matcher *m;

		rulebook_finish(rb, &ns);
		m = matcher_new(rb);
		check_prefilter(rb, m);
		matcher_free(m);
	}
	rulebook_free(rb);
	notes_release(&ns);
	free(path);
	fz_rmtree(dir);
	return 0;
}
