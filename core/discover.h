/* discover.h: from the paths on the command line to the run's log files,
 * each with the rank its name or place gives it.
 * Layouts recognised, by the shape of the paths:
 *   torchrun --log-dir  <run>_<rand>/attempt_N/<local_rank>/{stdout,stderr}.log
 *                       and error.json; one <run>_<rand> folder per node
 *   rank-named files    rank3.log, log_rank_3.txt, worker-3.out, proc03.err
 *   Slurm per task      %j-%t.out, %x-%j-%N-%t.err (the number that varies
 *                       across the files of one folder and is unique)
 *   anything else       a combined log: ranks come from line prefixes. */
#ifndef RW_DISCOVER_H
#define RW_DISCOVER_H

#include <stddef.h>

#include "notes.h"
#include "source.h"

#define DISCOVER_MAX_DEPTH	8

struct found {
	char		*path;
	char		*name;		/* relative to the PATH it was found under */
	enum source_kind kind;
	int		 rank;		/* -1: ranks come from the lines */
	int		 node;		/* -1 */
	int		 nproc;		/* 0 */
	const char	*layout;	/* "torchrun", "rank-named", "per-task", "combined", "stdin" */
};

struct foundlist {
	struct found	*v;
	size_t		 n, cap;
	const char	*layout;	/* the most common layout */
	size_t		 skipped_attempts;
};

/* Expand paths ("-" is stdin). Missing or unreadable paths get a note.
 * Returns the number of files found. */
size_t	discover(const char *const *paths, size_t npaths, int all_attempts,
	    struct foundlist *out, struct notes *ns);
void	foundlist_release(struct foundlist *fl);

/* Rank named by a file's basename keyword ("rank3", "worker-3"), or -1. */
int	discover_keyword_rank(const char *base);

#endif
