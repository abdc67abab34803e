/* strset.h: a set of strings, each kept once. A run of 100,000 ranks on
 * 12,500 hosts names each host in every rank's state: one copy a host. */
#ifndef RW_STRSET_H
#define RW_STRSET_H

#include <stddef.h>

struct strset {
	char	**v;		/* open addressing, NULL: free */
	size_t	  n, cap;	/* cap: 0 or a power of two */
};

#define STRSET_INIT { NULL, 0, 0 }

void		 strset_release(struct strset *s);
/* The set's copy of p[0..n) (added when new); valid until released. */
const char	*strset_add(struct strset *s, const char *p, size_t n);
/* The same, and when p[0..n) is new, extra[0..m) is kept after its NUL:
 * whatever came with the first copy of a string (an exemplar) is found
 * at the returned pointer + n + 1. */
const char	*strset_add_with(struct strset *s, const char *p, size_t n,
		    const char *extra, size_t m);

#endif
