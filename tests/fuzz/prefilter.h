/* prefilter.h: what fuzz_rules and fuzz_matcher both check, that the
 * matcher's prefilter never hides a match: the regex of every signature
 * run by hand on a line, with the matcher's limits and its requires: rule,
 * to compare with what matcher_match reports. */
#ifndef RW_FUZZ_PREFILTER_H
#define RW_FUZZ_PREFILTER_H

#include "fuzz.h"

#include "rulebook.h"

/* Does p[0..n) hold s, ASCII case folded? */
static inline int
fz_has_folded(const char *p, size_t n, const char *s)
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
static inline pcre2_match_context *
fz_limits(void)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	FZ_CHECK(mc != NULL);
	pcre2_set_match_limit(mc, 200000);
	pcre2_set_depth_limit(mc, 5000);
	pcre2_set_heap_limit(mc, 8192);
	return mc;
}

/* Should the matcher report s for this line (its raw text, and the message
 * line_parse found in it)? 1 yes, 0 no, -1 the regex gave up (either
 * answer is right then). */
static inline int
fz_should_match(const struct signature *s, const char *line, size_t len,
    const char *msg, size_t msglen, pcre2_match_data *md, pcre2_match_context *mc)
{
	size_t k;
	int rc, req;

	if (s->re == NULL)
		return 0;
	/* requires: one of its literals must be in the line too */
	req = s->requires.n == 0;
	for (k = 0; k < s->requires.n && !req; k++)
		req = fz_has_folded(line, len, s->requires.v[k]);
	if (!req)
		return 0;
	rc = pcre2_match(s->re, (PCRE2_SPTR)msg, msglen, 0, 0, md, mc);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

#endif
