/* search.c: the console's search pattern (see search.h). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "search.h"
#include "xmalloc.h"

struct pattern {
	char			*text;
	pcre2_code		*re;
	pcre2_match_data	*md;
	pcre2_match_context	*mc;
};

/* Smart case: a capital letter outside an escape (\S, \W, \D are classes)
 * makes the search exact. */
static int
has_capital(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			continue;
		}
		if (isupper((unsigned char)*s))
			return 1;
	}
	return 0;
}

struct pattern *
pattern_new(const char *text, char **why)
{
	struct pattern *p;
	int err;
	PCRE2_SIZE at;
	pcre2_code *re;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (!has_capital(text))
		opts |= PCRE2_CASELESS;
	re = pcre2_compile((PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED, opts, &err, &at, NULL);
	if (re == NULL) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(err, msg, sizeof msg);
		*why = xasprintf("not a regular expression (%s, at %zu)", (char *)msg, (size_t)at);
		return NULL;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	p = xcalloc(1, sizeof *p);
	p->text = xstrdup(text);
	p->re = re;
	p->md = pcre2_match_data_create_from_pattern(re, NULL);
	/* a log line is at most a few KiB here; bound the backtracking anyway */
	p->mc = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(p->mc, 1000000);
	return p;
}

void
pattern_free(struct pattern *p)
{
	if (p == NULL)
		return;
	pcre2_match_context_free(p->mc);
	pcre2_match_data_free(p->md);
	pcre2_code_free(p->re);
	free(p->text);
	free(p);
}

const char *
pattern_text(const struct pattern *p)
{
	return p->text;
}

int
pattern_find(struct pattern *p, const char *s, size_t n, size_t from, size_t *so, size_t *eo)
{
	while (from <= n) {
		PCRE2_SIZE *ov;
		int rc = pcre2_match(p->re, (PCRE2_SPTR)s, n, from, 0, p->md, p->mc);

		if (rc < 0)
			return 0;
		ov = pcre2_get_ovector_pointer(p->md);
		if (ov[1] > ov[0]) {
			*so = ov[0];
			*eo = ov[1];
			return 1;
		}
		from = ov[0] + 1;	/* an empty match: look further */
	}
	return 0;
}
