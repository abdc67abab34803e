/* outfile.c: write a file atomically (temporary file, fsync, rename).
 * Nothing here prints: errors come back as a message naming the file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "xmalloc.h"

struct outfile {
	char	*path;
	char	*tmp;
	int	 fd;
};

struct outfile *
outfile_open(const char *path, char **why)
{
	struct outfile *of;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path) + 1 : 0;

	if (*base == '\0') {
		*why = xasprintf("%s: not a file name (--output names a file)", path);
		return NULL;
	}
	of = xcalloc(1, sizeof *of);
	of->path = xstrdup(path);
	of->tmp = xasprintf("%.*s.%s.XXXXXX", dirlen, path, base);
	if ((of->fd = mkstemp(of->tmp)) < 0) {
		*why = xasprintf("%s: cannot write a file beside it: %s", path, strerror(errno));
		free(of->tmp);
		free(of->path);
		free(of);
		return NULL;
	}
	return of;
}

void
outfile_abort(struct outfile *of)
{
	if (of == NULL)
		return;
	close(of->fd);
	unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	free(of);
}

int
outfile_commit(struct outfile *of, const char *s, size_t n, char **why)
{
	mode_t mask = umask(0);
	int err = 0;

	umask(mask);
	while (n > 0 && err == 0) {
		ssize_t w = write(of->fd, s, n);

		if (w < 0 && errno != EINTR)
			err = errno;
		else if (w > 0) {
			s += w;
			n -= (size_t)w;
		}
	}
	if (err == 0 && (fchmod(of->fd, 0666 & ~mask) != 0 || fsync(of->fd) != 0))
		err = errno;
	if (close(of->fd) != 0 && err == 0)
		err = errno;
	of->fd = -1;
	if (err == 0 && rename(of->tmp, of->path) != 0)
		err = errno;
	if (err != 0) {
		*why = xasprintf("%s: %s", of->path, strerror(err));
		unlink(of->tmp);
	}
	free(of->tmp);
	free(of->path);
	free(of);
	return err == 0 ? 0 : -1;
}

int
outfile_write(const char *path, const char *s, size_t n, char **why)
{
	struct outfile *of = outfile_open(path, why);

	return of != NULL ? outfile_commit(of, s, n, why) : -1;
}
