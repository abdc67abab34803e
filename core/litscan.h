/* litscan.h: find many short literals in a block of text in one pass.
 * Each literal is known by a 3-byte fingerprint, the window of its bytes
 * that is rarest in the logs at hand. On x86-64 the block is tested 32
 * positions at a time against every fingerprint at once (AVX2 nibble
 * lookups into 8 buckets: the "Teddy" scheme of Hyperscan and of Rust's
 * aho-corasick); elsewhere byte by byte with the same tables. Each
 * fingerprint hit is compared with its literals, so every hit reported is
 * a real occurrence. */
#ifndef RW_LITSCAN_H
#define RW_LITSCAN_H

#include <stddef.h>
#include <stdint.h>

struct litscan;

/* One occurrence: p[start..end) is the literal added with target. */
struct lithit {
	uint32_t	 start;
	uint32_t	 end;
	uint32_t	 target;
};

struct lithits {
	struct lithit	*v;
	size_t		 n, cap;
};

/* Append the hit p[start..end) of target. */
void		 lithits_add(struct lithits *h, size_t start, size_t end,
		     uint32_t target);

struct litscan	*litscan_new(void);
void		 litscan_free(struct litscan *ls);
/* A literal of at least 3 bytes (shorter ones are ignored); icase: ASCII
 * letters match in either case. target is the caller's. */
void		 litscan_add(struct litscan *ls, const char *lit, size_t len,
		     int icase, uint32_t target);
/* (Re)build the tables after adding, to suit sample[0..n), a sample of
 * the text to scan (NULL: a built-in guess of log text). */
void		 litscan_build(struct litscan *ls, const char *sample, size_t n);
size_t		 litscan_count(const struct litscan *ls);
/* Append every occurrence of every literal in p[0..n) to out, in the
 * order of the positions of their fingerprints (which lie inside them). */
void		 litscan_scan(const struct litscan *ls, const char *p, size_t n,
		     struct lithits *out);
/* For the tests: nonzero uses the byte-by-byte scan even where AVX2 is
 * available. */
void		 litscan_force_scalar(int scalar);

#endif
