/* ticks.h: the confirmation checklist's state, kept per run.
 * Which steps the engineer ticked and the notes they wrote, saved under
 * $XDG_STATE_HOME/rankwatch/checklists/ in a file named after the run, so
 * opening the same run again finds them. */
#ifndef RW_TICKS_H
#define RW_TICKS_H

#include <stddef.h>

#include "buf.h"

/* A state file larger than this is not one rankwatch wrote: ignored. */
#define TICKS_FILE_MAX	(1 << 20)
/* Steps read from one file at most (a run's entries have tens). */
#define TICKS_MAX	10000

struct tick {
	char	*entry;
	int	 step;
	int	 checked;
	char	*note;		/* NULL: none */
};

struct ticks {
	char		*path;		/* the state file */
	char		*run;		/* what the run was, for people reading the file */
	struct tick	*v;
	size_t		 n, cap;
};

/* The state dir: $XDG_STATE_HOME/rankwatch/checklists or ~/.local/state/... */
char		*ticks_dir(void);
/* A stable file name for a run, whichever way it was opened: from the
 * folders that hold its logs (a folder given, or the folder of a file
 * given), resolved; the order and repeats of the paths do not matter. */
char		*ticks_key(const char *const *paths, size_t n);
/* Load the state of a run (empty when there is none yet). */
struct ticks	*ticks_open(const char *dir, const char *key, const char *run);
void		 ticks_free(struct ticks *t);
const struct tick *ticks_get(const struct ticks *t, const char *entry, int step);
void		 ticks_set(struct ticks *t, const char *entry, int step, int checked,
		    const char *note);
/* Take the steps saved in text[0..len) (a state file's contents) into t;
 * lines it cannot read, and any past TICKS_MAX steps, are left out. */
void		 ticks_parse(struct ticks *t, const char *text, size_t len);
/* The state file's contents, as ticks_save writes them. */
void		 ticks_format(const struct ticks *t, struct buf *b);
/* Write the file (creating the folders); 0, or -1 with *why. */
int		 ticks_save(const struct ticks *t, char **why);

#endif
