/* event.h: a matched line: which signature, which rank, when, what facts.
 * An event keeps a short copy of its line (for reports) and where the line
 * is (file, line number, byte offset), never the log itself. */
#ifndef RW_EVENT_H
#define RW_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "line.h"
#include "rulebook.h"

#define EVENT_TEXT_MAX	256
#define FACT_VALUE_MAX	120

/* How the attribution pass (core/attribute.c) gave an event its rank. */
enum attr_via {
	VIA_LINE,	/* its line's own rank (prefix, label, file...) */
	VIA_MESSAGE,	/* its message names the rank it is about */
	VIA_LAUNCHER,	/* a launcher line names its local rank or pid */
	VIA_RECORD,	/* a later line of the same record names the rank */
	VIA_GPU,	/* the GPU bus id a kernel line names */
};

struct fact {
	int	 id;		/* rulebook fact id */
	char	*value;
};

struct event {
	const struct signature	*sig;
	int			 rank;		/* -1: unattributed */
	enum rank_from		 rank_from;
	struct stamp		 ts;
	struct stamp		 upper;		/* for a borrowed time: the next own time in the file */
	const char		*file;		/* the source's name (not owned) */
	unsigned long		 lineno;
	uint64_t		 offset;
	unsigned		 flags;		/* LINE_* */
	char			*text;		/* the raw line, cut at EVENT_TEXT_MAX */
	char			*host;		/* NULL when unknown */
	long			 pid;		/* the printing process, -1 */
	int			 label;		/* the line's srun/mpirun label, -1 */
	int			 node;		/* node index from the layout, -1 */
	int			 assumed;	/* rank rests on local rank = global rank */
	enum attr_via		 via;		/* how attribution gave it its rank */
	int			 line_rank;	/* the rank its line gave it, before attribution */
	enum rank_from		 line_rank_from;
	struct fact		*facts;
	size_t			 nfacts;
	size_t			 order;		/* arrival order */
};

/* Build an event from a parsed line and a match (ov from PCRE2 on msg). */
struct event	*event_new(const struct signature *sig, const struct line *ln,
		    const char *file, const char *subject, const size_t *ov);
void		 event_free(struct event *ev);
const char	*event_fact(const struct event *ev, int id);
/* Numeric value of a fact; returns 0 when absent or not a number. */
int		 event_fact_num(const struct event *ev, int id, double *out);
/* Ordering for "which came first": time (timeless last), then the place
 * in the stream (line order in one file, files by name), then arrival. */
int		 event_cmp_time(const struct event *a, const struct event *b);

#endif
