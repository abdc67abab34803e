/* bins.h: one rank's activity on the timeline: how many lines it wrote in
 * each of TIMELINE_BINS time slices, and which roles its events had there.
 * A rank that wrote a few lines costs a few words: the counts are kept as
 * (slice, count) pairs until they fill BINS_SPARSE_MAX, and only then as
 * one dense array; the role marks (events are few) are always pairs.
 * Counts saturate at 65535 lines per slice (the timeline shows them
 * relative to the row's busiest slice). */
#ifndef RW_BINS_H
#define RW_BINS_H

#include <stddef.h>
#include <stdint.h>

#define TIMELINE_BINS	256
#define BINS_SPARSE_MAX	64

struct bins {
	uint32_t	*pairs;		/* sparse: slice << 16 | count, by slice */
	uint16_t	*dense;		/* NULL until the pairs are full */
	uint32_t	*roles;		/* slice << 16 | role bits, by slice */
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
