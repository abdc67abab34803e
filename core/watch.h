/* watch.h: know when a run's files change, to read what was appended.
 * inotify watches the run's folders (never each file: one watch per
 * folder keeps thousands of rank files under the watch limit). On network
 * filesystems (NFS, Lustre, GPFS, CIFS, Ceph, BeeGFS, FUSE), inotify never
 * hears about writes made by other hosts, so the folders are polled on a
 * timer instead and inotify only wakes the loop early for local writes.
 * The watch says "something may have changed"; the engine's incremental
 * read (run_scan_step) finds out what. */
#ifndef RW_WATCH_H
#define RW_WATCH_H

#include <stddef.h>

#include "notes.h"

#define WATCH_POLL_MS	1000	/* default interval where polling is needed */
#define WATCH_COALESCE_MS	100	/* inotify's changes are told at most this often */

struct watch;

/* Watch the folders of paths (files: their folder), recursively.
 * poll_ms > 0 forces polling at that interval; 0 polls only where the
 * filesystem needs it. Limits (inotify watches, descriptors) that are hit
 * become notes and polling. */
struct watch	*watch_new(const char *const *paths, size_t n, int poll_ms,
		    struct notes *ns);
void		 watch_free(struct watch *w);
/* Watch folders that appeared since (a new attempt_N, a node's folder). */
void		 watch_refresh(struct watch *w, const char *const *paths, size_t n,
		    struct notes *ns);
/* The descriptor to poll() for readability, or -1 when only polling. */
int		 watch_fd(const struct watch *w);
/* How long the caller may sleep before the next poll is due (ms), -1: no
 * polling, sleep until the descriptor is readable. */
int		 watch_timeout(const struct watch *w);
/* After poll(): drain inotify events and account for the timer. Returns
 * 1 when the files should be read again, 0 otherwise; *rescan is set when
 * a folder gained files or folders (discover again). Changes inotify
 * reports within WATCH_COALESCE_MS of the last 1 are told together, when
 * that time is up (watch_timeout says when): a job writing all the time
 * is read ten times a second, not at every write. */
int		 watch_check(struct watch *w, int *rescan);
/* Polling is in use for at least one folder; why (for the user). */
int		 watch_polling(const struct watch *w, const char **why);
size_t		 watch_dirs(const struct watch *w);

#endif
