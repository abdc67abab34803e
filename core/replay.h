/* replay.h: write a recorded run into a folder again, at a watchable pace.
 * For rankwatch --demo: the lines of every file of a sample run, in the
 * order of their timestamps, are appended to files of the same names, with
 * the quiet stretches of the incident (a 10-minute watchdog wait) shortened
 * so the whole story takes about a minute. */
#ifndef RW_REPLAY_H
#define RW_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct replay;

/* Read the run under src and prepare dst (created, with the same folders
 * and empty files). NULL with *why when src holds no logs. */
struct replay	*replay_new(const char *src, const char *dst, double seconds, char **why);
void		 replay_free(struct replay *rp);
size_t		 replay_lines(const struct replay *rp);
/* Write line i (appending to its file) and return how long to wait before
 * the next one, in ms; -1 when all lines are written. */
long		 replay_step(struct replay *rp, size_t i);

#endif
