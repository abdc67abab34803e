/* rulecheck.h: prove a rulebook against its own examples.
 * Every signature's examples go through the real line parser and the real
 * matcher (prefilter included): each must match its signature, no
 * counterexample may. Strict mode also asks for two examples and one
 * counterexample per signature, as the encyclopedia's standard. */
#ifndef RW_RULECHECK_H
#define RW_RULECHECK_H

#include "notes.h"
#include "rulebook.h"

struct rulecheck_stats {
	size_t	entries, signatures, conditions;
	size_t	examples, counterexamples;
	size_t	failures;
	size_t	unfiltered;	/* signatures the prefilter cannot narrow */
	int	step;		/* the prefilter's stride */
	size_t	shorts;		/* literals under 8 bytes, searched whole */
	const struct signature *shortest;	/* whose literal sets the stride */
	char	*shortest_lit;	/* allocated; the caller frees it */
	size_t	shortest_len;
};

struct matcher;

/* Does the matcher (prefilter included) report signature s for the raw
 * line text, parsed as a line of its own? */
int	rulecheck_reports(struct matcher *m, const struct signature *s, const char *text);

/* Returns the number of failures (also in stats). */
size_t	rulecheck_run(const struct rulebook *rb, int strict, struct notes *ns,
	    struct rulecheck_stats *stats);

#endif
