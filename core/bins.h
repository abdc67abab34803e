/* bins.h: one rank's activity on the timeline: how many lines it wrote in
 * each of TIMELINE_BINS time slices, and which roles its events had there.
 * A rank that wrote a few lines costs a few words: the counts are kept as
 * (slice, count) pairs until they fill BINS_SPARSE_MAX, and only then as
 * one dense array; the role marks (events are few) are always pairs. The
 * first BINS_INLINE pairs of each are in the struct: most ranks of a big
 * run need no allocation for either.
 * Counts saturate at 65535 lines per slice (the timeline shows them
 * relative to the row's busiest slice). */
#ifndef RW_BINS_H
#define RW_BINS_H

#include <stddef.h>
#include <stdint.h>

#define TIMELINE_BINS	256
#define BINS_SPARSE_MAX	64
#define BINS_INLINE	2	/* pairs kept in the struct (a pointer's room) */

/* A list of (slice << 16 | value) pairs, by slice: its first two in the
 * struct itself (cap 0), more in an array of cap (most ranks write in a
 * slice or two, and have an event in one). */
union bins_pairs {
	uint32_t	*v;
	uint32_t	 in[BINS_INLINE];
};

struct bins {
	union bins_pairs pairs;		/* sparse: slice << 16 | count */
	uint16_t	*dense;		/* NULL until the pairs are full */
	union bins_pairs roles;		/* slice << 16 | role bits */
	uint16_t	 npairs, cappairs;
	uint16_t	 nroles, caproles;
};

void		 bins_release(struct bins *b);
/* One more line in slice i; n more. */
void		 bins_add(struct bins *b, size_t i);
void		 bins_add_n(struct bins *b, size_t i, unsigned n);
/* Mark role bits in slice i. */
void		 bins_mark(struct bins *b, size_t i, unsigned roles);
unsigned	 bins_count(const struct bins *b, size_t i);
unsigned	 bins_roles(const struct bins *b, size_t i);
/* Move every slice's counts and marks to map[slice] (the timeline was
 * widened: several old slices land in one new one). */
void		 bins_remap(struct bins *b, const uint8_t map[TIMELINE_BINS]);

#endif
