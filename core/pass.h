/* pass.h: one pass of a run over its files, on one thread or several;
 * internal to core/run.c.
 *
 * How the work is split: whole files. Worker threads take the files in
 * order, one at a time each (a file's lines depend on the lines before
 * them: records, carried partial lines, hard-wrapped halves), and read
 * each in batches of PASS_BATCH bytes with a scanner of their own
 * (core/scan.h: a matcher sharing the run's tables, scratch of its own).
 *
 * How it is merged: the caller takes the batches with pass_next strictly
 * in file order, and within a file in reading order, and applies them to
 * the incident on its own thread. The incident, the notes and the events'
 * order are so the same for any number of threads. Workers share nothing
 * but one lock taken per batch (not per line or event), and may run ahead
 * of the merge by at most PASS_AHEAD batches per thread; the worker of
 * the file being merged is never held back, so the pass always moves. */
#ifndef RW_PASS_H
#define RW_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "matcher.h"
#include "scan.h"
#include "source.h"

#define PASS_BATCH	(256 * 1024)
#define PASS_AHEAD	32
#define PASS_GROUP	16	/* small files read before the merge is woken */

struct pass;

/* A pass over v[0..n) (the array is copied; the sources must outlive the
 * pass) with up to jobs threads (1: on the caller's thread, as it asks).
 * anchor: the run's year anchor, for files with none of their own (NULL:
 * the run has none). */
struct pass	*pass_start(struct source *const *v, size_t n, int final, int jobs,
		    struct matcher *m, const int64_t *anchor);
/* The next batch in file order, waiting until it is read; NULL when the
 * pass is done. Give it back with pass_recycle once applied. */
struct batch	*pass_next(struct pass *p);
void		 pass_recycle(struct pass *p, struct batch *b);
/* The index of the file being merged (n at the end). */
size_t		 pass_at(const struct pass *p);
/* Stop the threads (a pass may end early) and free what is left. */
void		 pass_end(struct pass *p);

/* fn(arg, i) for every i in [0, n), on up to jobs threads (the caller's
 * among them), taken in order from a shared counter; returns when all
 * are done. For independent work, such as reading back many files' lines. */
void		 pass_each(size_t n, int jobs, void (*fn)(void *arg, size_t i), void *arg);

/* The threads this process may use: the CPUs it may run on
 * (sched_getaffinity), under the cgroup's CPU quota when it sets one. */
int		 pass_default_jobs(void);

#endif
