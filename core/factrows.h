/* factrows.h: the events of routine signatures that conditions read one by
 * one, kept as rows. A run of 16,384 ranks prints its driver version, its
 * network interface and its dataset's length on every rank: a condition
 * compares them, and nothing else reads them one by one (see
 * incident.summarised). A row is a rank, an arrival order and its facts,
 * which it shares with every row that has the same: an exemplar event,
 * kept once for each distinct set of a signature's facts. */
#ifndef RW_FACTROWS_H
#define RW_FACTROWS_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct factrow {
	uint32_t		 order;		/* the event's arrival order */
	int32_t			 rank;
	const struct event	*ex;		/* its signature and facts */
};

struct factrows {
	struct factrow	 *v;
	size_t		  n, cap;
	struct event	**ex;		/* the exemplars, open addressing (NULL: free) */
	size_t		  nex, capex;	/* capex: 0 or a power of two */
};

#define FACTROWS_INIT { NULL, 0, 0, NULL, 0, 0 }

/* The exemplar of ev's signature and facts (made, from ev, when new). */
const struct event *factrows_exemplar(struct factrows *r, const struct event *ev);
/* A new row at the end; its index. */
size_t		 factrows_add(struct factrows *r, const struct event *ev, const struct event *ex);
void		 factrows_release(struct factrows *r);

#endif
