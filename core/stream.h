/* stream.h: logs that arrive on a pipe, not in a file: standard input
 * ("kubectl logs -f job-worker-0 | rankwatch -"), or the output of
 * commands rankwatch runs itself, one per rank source
 * (--cmd 'kubectl logs -f job-worker-{0..15}'). A stream is a source like
 * a file (core/source.h), read by the same incremental path; only where
 * its bytes come from differs. Nothing here knows about lines. */
#ifndef RW_STREAM_H
#define RW_STREAM_H

#include <stddef.h>
#include <sys/types.h>

#define STREAM_MAX	4096	/* commands --cmd may expand to */
#define STREAM_MAX_S	"4096"

/* Brace expansion as bash does it, for the cases a list of pods needs:
 * {0..15} (numbers, a leading zero pads: {00..15}), {a,b,c}, several
 * groups (their product, left to right). A brace with neither is kept as
 * it is. Returns the number of commands (>= 1) put in *out (each and
 * *out to be freed), or 0 with *why set when they would be more than
 * STREAM_MAX or a range is malformed. */
size_t	stream_expand(const char *pattern, char ***out, char **why);

/* Run cmd with /bin/sh -c in a process group of its own, standard input
 * from /dev/null, standard output and error into a pipe. Returns the
 * pipe's read end (close-on-exec), or -1 with *why set. */
int	stream_spawn(const char *cmd, pid_t *pid, char **why);

/* The command's end, once its pipe is at EOF: 1 with *status (as waitpid
 * gives it) when it has exited, 0 when it is still running. */
int	stream_reap(pid_t pid, int *status);

/* Stop the command (SIGTERM to its process group, then SIGKILL after
 * a grace of up to 200 ms) and reap it. */
void	stream_stop(pid_t pid);

/* "exited with status 1", "killed by signal 9" (a static string). */
const char *stream_status(int status, char *buf, size_t len);

/* Make fd non-blocking, for following: a read then returns what there is. */
void	stream_nonblock(int fd);

#endif
