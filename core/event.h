/* event.h: a matched line: which signature, which rank, when, what facts.
 * An event keeps where its line is (file, line number, byte offset) and
 * its facts, never the log itself: a report reads the line back from its
 * file (event_text), checking that the bytes are still the ones matched.
 * A line that is not in a file as it was matched (standard input, a
 * torchrun error.json, a record joined from two lines) keeps a copy, and
 * so does the first failure-like line of each rank of a file, which a
 * report shows for every rank (core/scan.c), as a shared skeleton and the
 * numbers that differ from its first line's once the incident keeps it
 * (event_compact). A run of 100,000
 * ranks keeps a million events: each is 96 bytes and its facts (most of them
 * shared with its signature's first event). */
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
	VIA_EXIT,	/* the one worker its launcher reports failed */
	VIA_PROCESS,	/* its process's NCCL init line names its rank */
	VIA_CONNECTION,	/* its process's NCCL connection lines name its rank,
			 * in a communicator of a size they do not say */
	VIA_TASK,	/* a launcher's task number, with no agent per node */
	VIA_PID,	/* another line names its process's pid and rank */
};

struct fact {
	uint16_t	 id;		/* rulebook fact id */
	uint16_t	 off;		/* its value, from the event's start */
};

/* Where a source's events are: its name to show, and the file to read
 * their lines back from: base + name when base ends in '/' (the folder a
 * run's files share, kept once), else base itself, a path (NULL: none,
 * each event keeps its text). Owned by the source, shared by its events. */
struct event_where {
	const char	*name;
	const char	*base;
};
/* Is base a folder (the path is base + name)? A file's path never ends
 * in '/'. */
int		 event_where_in_dir(const struct event_where *w);
/* The file's path (in buf when it is made of the folder and the name);
 * NULL: none, or longer than size. */
const char	*event_where_path(const struct event_where *w, char *buf, size_t size);

struct event {
	const struct signature	*sig;
	const struct event_where *where;	/* its source's */
	const char		*host;		/* shared, NULL when unknown */
	struct stamp		 ts;
	uint64_t		 offset;
	uint32_t		 lineno;
	uint32_t		 order;		/* arrival order */
	int32_t			 pid;		/* the printing process, -1 */
	int			 rank;		/* -1: unattributed */
	int			 label;		/* the line's srun/mpirun label, -1 */
	int			 node;		/* node index from the layout, -1 */
	int			 line_rank;	/* the rank its line gave it, before attribution */
	uint32_t		 texthash;	/* of the line's first textlen bytes */
	uint16_t		 textlen;	/* those bytes: the line, cut at EVENT_TEXT_MAX */
	uint16_t		 nfacts;
	uint16_t		 flags:6;	/* LINE_* */
	uint16_t		 home:2;	/* EVENT_MALLOC, EVENT_ARENA, EVENT_POOL */
	uint16_t		 cls:8;		/* a pool's: its size / 8 */
	/* (bit fields: a large run keeps an event or several for each rank,
	 * and these are two bytes, not six, so that an event is 88) */
	uint8_t			 rank_from:4;	/* enum rank_from */
	uint8_t			 line_rank_from:4;
	uint8_t			 via:4;		/* enum attr_via: how attribution gave it its rank */
	uint8_t			 assumed:1;	/* rank rests on local rank = global rank */
	uint8_t			 kept:2;	/* the text follows the facts (2: compacted) */
	uint8_t			 shared:1;	/* its fact ids and some values are an
						 * exemplar's (event_compact) */
	/* then, for a borrowed time (STAMP_INHERITED), its upper bound: the
	 * next own time in the file (event_upper); struct fact[nfacts] and
	 * the values, or when shared the exemplar (a pointer), a bit a fact
	 * for the values of its own and those; the kept text */
};

/* Where events made by the thousand, and mostly dropped, are made: a
 * reader's batch (core/scan.h) carves its events from one, and lets them
 * all go at once when it is read again; the incident keeps a copy of
 * those it keeps (event_own). No malloc or free per event, and none of
 * one thread's memory freed by another. */
struct evblock;
struct evarena {
	struct evblock	*blocks;	/* the newest first */
	char		*at, *end;	/* the room left in the newest */
};
/* Every event made in a goes; one block stays, for the next. */
void		 evarena_reset(struct evarena *a);
void		 evarena_release(struct evarena *a);

/* Where an incident keeps its events (event_own, event_compact): each
 * size, to 8 bytes, reuses its freed ones, and the others are carved from
 * blocks. A large run keeps an event or several for each rank: each costs
 * what it holds, not a malloc header and a rounding to 16 besides. */
#define EVPOOL_MAX	1024	/* larger events are malloc'd */
struct evpool {
	struct evarena	 carve;
	void		*free[EVPOOL_MAX / 8 + 1];	/* by size / 8 */
};
void		 evpool_release(struct evpool *p);
/* Room for size bytes (at least 8) of anything else an incident keeps by
 * the hundred thousand, a rank's slots: from p's sizes the same way;
 * given back with the same size. */
void		*evpool_get(struct evpool *p, size_t size);
void		 evpool_give(struct evpool *p, void *mem, size_t size);

/* Where an event's memory is: */
enum {
	EVENT_MALLOC,	/* its own allocation (event_free frees it) */
	EVENT_ARENA,	/* an arena's (which frees it) */
	EVENT_POOL,	/* a pool's (event_put) */
};

/* Build an event from a parsed line and a match (ov from PCRE2 on msg).
 * where: its source's; keep: keep a copy of the line rather than read it
 * back from where->path (the caller must when that is NULL, or the line
 * is not in the file as it was read: core/scan.c); host: a string that
 * outlives the event, or NULL; arena: where it is made (NULL: its own
 * allocation, which event_free frees). */
struct event	*event_new(const struct signature *sig, const struct line *ln,
		    const struct event_where *where, int keep, const char *host,
		    const char *subject, const size_t *ov, struct evarena *arena);
/* ev in p: ev when it is p's already; else a copy, and ev is freed
 * (event_free: an arena's stays its arena's). */
struct event	*event_own(struct event *ev, struct evpool *p);
/* Free an event of p's (or one of its own allocation). */
void		 event_put(struct evpool *p, struct event *ev);
/* The name of the source the event's line is in. */
static inline const char *
event_file(const struct event *ev)
{
	return ev->where->name;
}
/* Do two events read the same line (of the same source)? */
static inline int
event_same_line(const struct event *a, const struct event *b)
{
	return a->where == b->where && a->lineno == b->lineno;
}
/* (Nothing for an event in an arena: the arena frees it; a pool's goes
 * back to its pool with event_put.) */
void		 event_free(struct event *ev);
struct strset;
/* The same event, smaller, for an incident that keeps a million:
 * - its kept text stored as a skeleton shared in skeletons (the line with
 *   each word that has a digit taken out) and those words, but for the
 *   ones equal to the words of the skeleton's first line: the first
 *   failure line every rank of a large run keeps differs from the next
 *   rank's in a few of its numbers only (its rank, its time);
 * - when its facts are those of ex (an event of the same signature
 *   that outlives it, not itself compacted; NULL: none), in the same
 *   order, their ids and each value equal to ex's read from ex, not kept
 *   twice: the sequence number, the operation and the sizes every rank's
 *   watchdog timeout repeats; a bit a fact says which values it has.
 * The copy is p's (event_own when it would be no smaller), and ev is
 * freed (event_free); event_text, event_fact and the others give what
 * they gave of ev. */
struct event	*event_compact(struct event *ev, struct strset *skeletons,
		    const struct event *ex, struct evpool *p);
/* The line's text (cut at EVENT_TEXT_MAX), read back into buf when the
 * event keeps no copy; NULL when the file no longer holds it. */
const char	*event_text(const struct event *ev, char buf[EVENT_TEXT_MAX + 1]);
const char	*event_fact(const struct event *ev, int id);
/* A borrowed time's upper bound (no STAMP_TIME until one is known); only
 * an event with a borrowed time has one to set. */
const struct stamp *event_upper(const struct event *ev);
void		 event_set_upper(struct event *ev, const struct stamp *upper);
/* The i-th fact's value; *id gets its fact id. */
const char	*event_fact_at(const struct event *ev, size_t i, int *id);
/* Numeric value of a fact; returns 0 when absent or not a number. */
int		 event_fact_num(const struct event *ev, int id, double *out);
/* Does a say again what b, an earlier line of the same file, said: the
 * same signature, rank, process, facts and torchrun summary section, and
 * not an earlier time? (How each found its rank, and whether it continues
 * a record, may differ: the exception that quotes a timeout line.) */
int		 event_repeats(const struct event *a, const struct event *b);
/* The same signature and facts (ids and values)? */
int		 event_same_facts(const struct event *a, const struct event *b);
/* A hash of the signature and facts (equal when event_same_facts). */
uint64_t	 event_facts_hash(const struct event *ev);
/* A copy of ev with its facts and without its text (event_text has none
 * to give): an exemplar of those facts. */
struct event	*event_facts_copy(const struct event *ev);
/* Ordering for "which came first": time (timeless last), then the place
 * in the stream (line order in one file, files by name), then arrival. */
int		 event_cmp_time(const struct event *a, const struct event *b);

#endif
