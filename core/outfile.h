/* outfile.h: replace a file whole. The text goes to a temporary file in
 * the same folder, which is renamed over the file: a reader (such as
 * node_exporter's textfile collector) sees the old file or the new one,
 * never half of one. */
#ifndef RW_OUTFILE_H
#define RW_OUTFILE_H

#include <stddef.h>

struct outfile;

/* Make the temporary file beside path: ".NAME.XXXXXX", hidden, and
 * matched by no "*.prom" glob. NULL with *why (naming path) when that
 * cannot be done: a missing or unwritable folder. */
struct outfile	*outfile_open(const char *path, char **why);
/* Write s[0..n) to it, fsync, and rename it over path, with the mode a
 * new file gets (0666 less the umask). Frees of; on failure the temporary
 * file is removed and -1 returned with *why. */
int		 outfile_commit(struct outfile *of, const char *s, size_t n, char **why);
/* Remove the temporary file and free of; NULL does nothing. */
void		 outfile_abort(struct outfile *of);
/* outfile_open and outfile_commit. */
int		 outfile_write(const char *path, const char *s, size_t n, char **why);

#endif
