/* rulecheck.c: run every example and counterexample through the engine. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "matcher.h"
#include "rulecheck.h"
#include "xmalloc.h"

struct hit {
	const struct signature	*want;
	int			 found;
};

static void
on_hit(void *arg, const struct signature *sig, const char *subject,
    const PCRE2_SIZE *ov)
{
	struct hit *h = arg;

	(void)subject;
	(void)ov;
	if (sig == h->want)
		h->found = 1;
}

int
rulecheck_reports(struct matcher *m, const struct signature *s, const char *text)
{
	struct linestate ls;
	struct line ln;
	struct hit h = { s, 0 };

	linestate_init(&ls, -1, -1, 0);
	line_parse(&ls, text, strlen(text), &ln);
	matcher_match(m, text, strlen(text), ln.msg, ln.msglen, ln.sev, 0, on_hit, &h);
	return h.found;
}

size_t
rulecheck_run(const struct rulebook *rb, int strict, struct notes *ns,
    struct rulecheck_stats *st)
{
	struct matcher *m = matcher_new(rb);
	size_t i, j;

	memset(st, 0, sizeof *st);
	st->entries = rb->nentries;
	st->conditions = rb->nconds;
	for (i = 0; i < rb->nsigs; i++) {
		const struct signature *s = rb->sigs[i];
		char **frags = NULL;
		size_t nf;

		st->signatures++;
		if (s->re == NULL)
			continue;
		if (s->prefilter.n == 0 && s->level == 0) {	/* (a level is its prefilter) */
			nf = matcher_fragments(s->pattern, &frags);
			if (nf == 0) {
				st->unfiltered++;
				notes_add(ns, NOTE_WARN, s->entry->file, s->line, 0,
				    "signature %s has no literal of 4 bytes or more: it runs "
				    "on every line (give it a prefilter)", s->id);
			}
			for (j = 0; j < nf; j++)
				free(frags[j]);
			free(frags);
		}
		if (strict && s->examples.n < 2) {
			notes_add(ns, NOTE_ERROR, s->entry->file, s->line, 0,
			    "signature %s needs at least two examples", s->id);
			st->failures++;
		}
		if (strict && s->counterexamples.n < 1) {
			notes_add(ns, NOTE_ERROR, s->entry->file, s->line, 0,
			    "signature %s needs at least one counterexample", s->id);
			st->failures++;
		}
		for (j = 0; j < s->examples.n; j++) {
			st->examples++;
			if (!rulecheck_reports(m, s, s->examples.v[j])) {
				notes_add(ns, NOTE_ERROR, s->entry->file, s->line, 0,
				    "signature %s does not match its example %zu: %s",
				    s->id, j + 1, s->examples.v[j]);
				st->failures++;
			}
		}
		for (j = 0; j < s->counterexamples.n; j++) {
			st->counterexamples++;
			if (rulecheck_reports(m, s, s->counterexamples.v[j])) {
				notes_add(ns, NOTE_ERROR, s->entry->file, s->line, 0,
				    "signature %s matches its counterexample %zu: %s",
				    s->id, j + 1, s->counterexamples.v[j]);
				st->failures++;
			}
		}
	}
	st->step = matcher_step(m);
	st->shorts = matcher_short_fragments(m);
	{
		const char *lit = NULL;

		st->shortest = matcher_shortest(m, &lit, &st->shortest_len);
		if (st->shortest != NULL)
			st->shortest_lit = xstrndup(lit, st->shortest_len);
	}
	matcher_free(m);
	return st->failures;
}
