/* matcher.h: run every signature of a rulebook over a line, fast.
 * A prefilter looks up a literal fragment of every signature at once, in
 * one pass over a whole block of lines (matcher_scan) or over one line:
 * long fragments by 4-byte grams in a bitmap, ASCII case folded, sampled
 * every `step` bytes (the shortest of them sets the step); shorter ones,
 * and the literals of `requires` lists, by the litscan's fingerprints.
 * Only the signatures whose fragment occurs in a line (or, for some with
 * a requires list, one of its literals: matcher_tune) run their PCRE2
 * (JIT) regex, with match and depth limits so no pattern can hang the
 * program. */
#ifndef RW_MATCHER_H
#define RW_MATCHER_H

#include <stddef.h>
#include <stdint.h>

#include "rulebook.h"

struct matcher;

/* Fragments at least this long go to the gram scan; shorter ones to the
 * litscan. */
#define MATCHER_LONG_FRAG	11

/* Called for each signature that matched. ov holds 2*ngroups+2 offsets
 * into subject (PCRE2_UNSET for unset groups). */
typedef void (*match_fn)(void *arg, const struct signature *sig,
    const char *subject, const PCRE2_SIZE *ov);

struct matcher	*matcher_new(const struct rulebook *rb);
const struct rulebook *matcher_rulebook(const struct matcher *m);
void		 matcher_free(struct matcher *m);
/* A matcher for another thread: it reads base's tables (base must be
 * tuned already, and outlive it, unchanged) and has scratch of its own. */
struct matcher	*matcher_clone(const struct matcher *base);
/* Tune the prefilter to a sample of this run's logs: index each literal
 * by its rarest grams, look for each short literal by its rarest bytes,
 * and look for a signature with a requires list by that list when its
 * literals are the rarer in the sample. The matches never change, only
 * the speed, and which lines had candidates (matcher_had_candidates). */
void		 matcher_tune(struct matcher *m, const char *sample, size_t n);
/* Prefilter a block of whole lines at once: matcher_match on the lines
 * inside it, in order, then only looks up what this scan found. The block
 * must stay unchanged until the next call (NULL: forget it). */
void		 matcher_scan(struct matcher *m, const char *block, size_t n);
/* Prefilter on line (the raw line), regexes on msg (the message part).
 * A line inside the block scanned last, after the lines asked about
 * before, takes that scan's findings; any other is scanned alone.
 * sev: the level its logger gave the line (line.h), which signatures
 * with a level (rulebook.h) are run by, not by the prefilter. ranked:
 * the line has a rank of its own, which unranked signatures are not run
 * on. Returns the number of matches. Errors (match limit) go to notes
 * via matcher_take_error. */
int		 matcher_match(struct matcher *m, const char *line, size_t linelen,
		     const char *msg, size_t msglen, char sev, int ranked, match_fn fn,
		     void *arg);
/* The signature that last gave up (match limit), cleared when read. */
const struct signature *matcher_take_error(struct matcher *m, int *code);
/* How many signatures the last matcher_match call's prefilter let through
 * to their regex (a line with candidates and no match may be the first
 * half of a hard-wrapped record). */
size_t		 matcher_had_candidates(const struct matcher *m);
/* The last matcher_match call's candidates that did not match (their
 * signature indices, in rulebook order), valid until the next call. */
size_t		 matcher_failed(const struct matcher *m, const uint32_t **sigs);
/* Could more text after msg make one of signatures sigs[0..n) match (a
 * PCRE2 partial match at its end)? A line that none of its candidates
 * could go on from is the first half of no hard-wrapped record. */
int		 matcher_may_continue(struct matcher *m, const uint32_t *sigs, size_t n,
		     const char *msg, size_t msglen);
/* Is msg the start of a line signature si reads, cut short (a partial
 * match only: the text ends inside what the pattern still needs)? The
 * bytes of msg the partial match spans, 0: none. */
size_t		 matcher_cut_short(struct matcher *m, uint32_t si, const char *msg,
		     size_t msglen);

/* Literal fragments the prefilter uses for a pattern: 0 when the pattern
 * has none of at least 4 bytes (it then runs on every line). Each out[i]
 * is allocated. */
size_t		 matcher_fragments(const char *pattern, char ***out);
/* Signatures that run on every line (no fragment). */
size_t		 matcher_unfiltered(const struct matcher *m);
/* Literals under MATCHER_LONG_FRAG bytes, which the litscan looks for. */
size_t		 matcher_short_fragments(const struct matcher *m);
int		 matcher_step(const struct matcher *m);
/* The signature with the shortest fragment (which sets the stride). */
const struct signature *matcher_shortest(const struct matcher *m, const char **lit,
		     size_t *len);

#endif
