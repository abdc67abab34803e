/* run.h: the engine. A run owns the sources of one training run, the
 * rulebook and matcher, and the incident they feed:
 *   source (bytes) -> line (rank, time) -> matcher -> event -> incident.
 * run_scan reads whatever was appended since the last call, so analysing
 * a finished run and following a live one are the same code path. */
#ifndef RW_RUN_H
#define RW_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "discover.h"
#include "imap.h"
#include "incident.h"
#include "matcher.h"
#include "notes.h"
#include "rulebook.h"
#include "source.h"
#include "strset.h"

struct run {
	char		 *title;	/* the paths, as given */
	char		**paths;
	size_t		  npaths;
	int		  all_attempts;
	/* called for every event as it reaches the incident (--watch) */
	void		(*on_event)(void *arg, const struct event *ev);
	void		 *on_event_arg;
	const struct rulebook *rb;
	struct matcher	 *matcher;
	int		  own_matcher;
	struct source	**sources;
	size_t		  nsources, capsources;
	struct strset	  dirs;		/* the folders of the sources' paths, each once */
	/* events waiting for an upper time bound, of the sources that had
	 * some (most never do: a run may have 100,000): by source id */
	struct pending	 *pending;
	size_t		  npending, cappending;
	struct imap	  pending_at;
	const char	 *layout;
	struct incident	 *incident;
	struct notes	  notes;
	char		 *buf;		/* SOURCE_CHUNK of scratch */
	uint64_t	  bytes;
	size_t		  cursor;	/* run_scan_step: the next source to read */
	int64_t		  anchor;	/* the run's year anchor: latest dated line probed */
	int		  anchor_dated;
	unsigned long	  matches;
	unsigned long	  match_errors;
	unsigned long	  match_errors_told;	/* the count last said in a note */
	int		  jobs;		/* threads reading files */
	int		  once;		/* run_options.once */
	struct pass	 *pass;		/* the pass over the files under way, NULL */
};

struct run_options {
	int		 all_attempts;
	/* the run is read once, to its end (a report): each source's
	 * reading state goes as soon as it is read (source_retire), and
	 * nothing reads it again */
	int		 once;
	/* a matcher over the same rulebook to use, already tuned, which the
	 * run borrows (NULL: the run builds and tunes its own) */
	struct matcher	*matcher;
	/* threads to read files with (0: pass_default_jobs); the report is
	 * the same for any number */
	int		 jobs;
	/* commands whose output are sources too (--cmd, already expanded),
	 * and where streams keep a copy of what they read (NULL: nowhere) */
	char *const	*cmds;
	size_t		 ncmds;
	const char	*spool_dir;
};

/* Discover the files under paths. Returns NULL with *why set when nothing
 * readable was found at all. */
struct run	*run_new(const struct rulebook *rb, const char *const *paths,
		    size_t npaths, const struct run_options *opt, char **why);
void		 run_free(struct run *r);
/* Read everything appended since the last scan. final: also take each
 * file's last line when it has no newline (a finished run). Returns bytes
 * read. */
uint64_t	 run_scan(struct run *r, int final);
/* Read at most about budget bytes (0: all), resuming where the last call
 * stopped; returns 1 while a pass over the files is unfinished (and adds
 * the pass's closing notes when it ends). A console
 * calls this between key presses, so reading never blocks the keyboard. */
int		 run_scan_step(struct run *r, uint64_t budget, int final);
/* Look for files that appeared since (a rank that started late, a new
 * attempt); returns how many were added. */
size_t		 run_rediscover(struct run *r);
/* Following: make the streams' reads return what there is. */
void		 run_follow(struct run *r);
/* The pipes of streams not at their end yet, for poll() (up to max);
 * returns how many. */
size_t		 run_stream_fds(const struct run *r, int *fds, size_t max);
/* Nothing more can come: every source is a stream that has ended, and
 * no path is a file or folder. */
int		 run_streams_ended(const struct run *r);
/* Files that could be read at least once. */
size_t		 run_readable(const struct run *r);

#endif
