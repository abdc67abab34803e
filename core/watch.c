/* watch.c: inotify on folders, polling where inotify is blind. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"
#include "xmalloc.h"

#define MAX_DEPTH	8

struct watch {
	int		 ifd;		/* inotify, -1 */
	int		 poll_ms;	/* 0: no polling */
	const char	*poll_why;
	struct timespec	 last_poll;
	/* inotify's changes, held back until WATCH_COALESCE_MS after the
	 * last "read again" (a busy job writes thousands of times a second;
	 * each read pass is over every file, and an analysis follows) */
	struct timespec	 last_told;
	int		 pending, pending_rescan;
	char		**dirs;
	int		 *wds;		/* per dir: its inotify watch, -1 */
	size_t		 ndirs, capdirs, capwds;
};

/* Filesystems where writes from other hosts reach no local inotify. */
static const char *
remote_fs(const char *path)
{
	static const struct {
		unsigned long	 magic;
		const char	*name;
	} fs[] = {
		{ 0x6969, "NFS" },
		{ 0x0bd00bd0, "Lustre" },
		{ 0x47504653, "GPFS" },
		{ 0xff534d42, "CIFS" },
		{ 0xfe534d42, "SMB2" },
		{ 0x517b, "SMB" },
		{ 0x00c36400, "CephFS" },
		{ 0x19830326, "BeeGFS" },
		{ 0x65735546, "FUSE" },
		{ 0x013111a8, "IBRIX" },
		{ 0x5346414f, "AFS" },
		{ 0x47504653, "Spectrum Scale" },
	};
	struct statfs sf;
	size_t i;

	if (statfs(path, &sf) != 0)
		return NULL;
	for (i = 0; i < sizeof fs / sizeof *fs; i++)
		if ((unsigned long)sf.f_type == fs[i].magic)
			return fs[i].name;
	return NULL;
}

static void
add_dir(struct watch *w, const char *dir, int depth, struct notes *ns)
{
	struct dirent *de;
	DIR *d;
	const char *remote;
	size_t i;

	for (i = 0; i < w->ndirs; i++)
		if (strcmp(w->dirs[i], dir) == 0)
			break;
	if (i < w->ndirs)
		goto children;	/* known: only look for new folders below */
	XGROW(w->dirs, w->capdirs, w->ndirs + 1);
	XGROW(w->wds, w->capwds, w->ndirs + 1);
	w->wds[w->ndirs] = -1;
	w->dirs[w->ndirs++] = xstrdup(dir);
	if ((remote = remote_fs(dir)) != NULL && w->poll_ms == 0) {
		w->poll_ms = WATCH_POLL_MS;
		w->poll_why = remote;
		notes_add(ns, NOTE_INFO, dir, 0, 0,
		    "on %s: writes from other hosts are found by polling every %d ms "
		    "(what a remote host appended shows after the client's attribute cache "
		    "expires, up to acregmax, 60 s by default)", remote, WATCH_POLL_MS);
	}
	if (w->ifd >= 0 && (w->wds[w->ndirs - 1] = inotify_add_watch(w->ifd, dir, IN_MODIFY |
	    IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB |
	    IN_DONT_FOLLOW)) < 0) {
		if (w->poll_ms == 0) {
			w->poll_ms = WATCH_POLL_MS;
			w->poll_why = errno == ENOSPC ? "the inotify watch limit" : "inotify";
		}
		notes_add(ns, NOTE_WARN, dir, 0, 0, "cannot watch with inotify (%s%s); polling "
		    "every %d ms instead", strerror(errno), errno == ENOSPC ?
		    ", see /proc/sys/fs/inotify/max_user_watches" : "", w->poll_ms);
	}
children:
	if (depth >= MAX_DEPTH || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;
		struct stat sb;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			add_dir(w, p, depth + 1, ns);
		free(p);
	}
	closedir(d);
}

void
watch_refresh(struct watch *w, const char *const *paths, size_t n, struct notes *ns)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct stat sb;
		char *dir;

		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			dir = xstrdup(paths[i]);
		else {
			const char *slash = strrchr(paths[i], '/');

			dir = slash ? xstrndup(paths[i], (size_t)(slash - paths[i])) : xstrdup(".");
			if (*dir == '\0') {
				free(dir);
				dir = xstrdup("/");
			}
		}
		add_dir(w, dir, 0, ns);
		free(dir);
	}
}

struct watch *
watch_new(const char *const *paths, size_t n, int poll_ms, struct notes *ns)
{
	struct watch *w = xcalloc(1, sizeof *w);

	w->poll_ms = poll_ms > 0 ? poll_ms : 0;
	if (poll_ms > 0)
		w->poll_why = "--poll";
	/* RANKWATCH_NO_INOTIFY: behave as on a network filesystem, where
	 * inotify hears nothing (to measure and test polling on a local disk) */
	w->ifd = getenv("RANKWATCH_NO_INOTIFY") ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->ifd < 0 && getenv("RANKWATCH_NO_INOTIFY")) {
		if (w->poll_ms == 0) {
			w->poll_ms = WATCH_POLL_MS;
			w->poll_why = "RANKWATCH_NO_INOTIFY";
		}
	} else if (w->ifd < 0) {
		notes_add(ns, NOTE_WARN, NULL, 0, 0, "inotify is not available (%s); polling "
		    "every %d ms", strerror(errno), WATCH_POLL_MS);
		if (w->poll_ms == 0) {
			w->poll_ms = WATCH_POLL_MS;
			w->poll_why = "no inotify";
		}
	}
	watch_refresh(w, paths, n, ns);
	clock_gettime(CLOCK_MONOTONIC, &w->last_poll);
	return w;
}

void
watch_free(struct watch *w)
{
	size_t i;

	if (w == NULL)
		return;
	if (w->ifd >= 0)
		close(w->ifd);
	for (i = 0; i < w->ndirs; i++)
		free(w->dirs[i]);
	free(w->dirs);
	free(w->wds);
	free(w);
}

int
watch_fd(const struct watch *w)
{
	return w->ifd;
}

static long
ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

int
watch_timeout(const struct watch *w)
{
	long left;

	long hold = w->pending ? WATCH_COALESCE_MS - ms_since(&w->last_told) : -1;

	if (w->pending && hold < 0)
		hold = 0;
	if (w->poll_ms == 0)
		return (int)hold;
	left = w->poll_ms - ms_since(&w->last_poll);
	if (left < 0)
		left = 0;
	return (int)(hold >= 0 && hold < left ? hold : left);
}

/* A watched folder is gone (deleted, or its file system unmounted): forget
 * it, so that the rescan that follows watches it again if it comes back
 * under the same name. */
static void
forget_dir(struct watch *w, int wd, int *rescan)
{
	size_t i;

	for (i = 0; i < w->ndirs; i++)
		if (w->wds[i] == wd) {
			free(w->dirs[i]);
			w->dirs[i] = w->dirs[w->ndirs - 1];
			w->wds[i] = w->wds[w->ndirs - 1];
			w->ndirs--;
			*rescan = 1;
			return;
		}
}

int
watch_check(struct watch *w, int *rescan)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changed = 0;
	ssize_t n;

	*rescan = 0;
	while (w->ifd >= 0 && (n = read(w->ifd, buf, sizeof buf)) > 0) {
		char *p = buf;

		while (p < buf + n) {
			const struct inotify_event *ev = (const struct inotify_event *)(void *)p;

			w->pending = 1;
			if (ev->mask & (IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_Q_OVERFLOW))
				w->pending_rescan = 1;
			if (ev->mask & IN_IGNORED)
				forget_dir(w, ev->wd, &w->pending_rescan);
			p += sizeof *ev + ev->len;
		}
	}
	if (w->poll_ms > 0 && ms_since(&w->last_poll) >= w->poll_ms) {
		clock_gettime(CLOCK_MONOTONIC, &w->last_poll);
		changed = 1;
		*rescan = 1;	/* polling cannot tell new files apart */
	}
	if (w->pending && (changed || ms_since(&w->last_told) >= WATCH_COALESCE_MS)) {
		changed = 1;
		*rescan |= w->pending_rescan;
		w->pending = w->pending_rescan = 0;
	}
	if (changed)
		clock_gettime(CLOCK_MONOTONIC, &w->last_told);
	return changed;
}

int
watch_polling(const struct watch *w, const char **why)
{
	*why = w->poll_why;
	return w->poll_ms > 0;
}

size_t
watch_dirs(const struct watch *w)
{
	return w->ndirs;
}
