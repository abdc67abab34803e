/* imap.h: a map from int keys (ranks) to indices, open addressing. Per-rank
 * state is kept for the ranks a run shows, not for every number up to the
 * highest one: a line naming rank 1048575 costs one entry, not a table of
 * a million. */
#ifndef RW_IMAP_H
#define RW_IMAP_H

#include <stddef.h>
#include <stdint.h>

struct imap {
	int		*key;
	uint32_t	*val;	/* indices: below 2^32 */
	size_t		 n, cap;	/* cap: 0 or a power of two */
};

#define IMAP_INIT { NULL, NULL, 0, 0 }

void	imap_release(struct imap *m);
void	imap_clear(struct imap *m);
/* Set key to val (adding it when new). */
void	imap_set(struct imap *m, int key, size_t val);
/* 1 and *val when key is there, else 0. */
int	imap_get(const struct imap *m, int key, size_t *val);

#endif
