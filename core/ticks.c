/* ticks.c: checklist state in a small tab-separated file, written atomically. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "ticks.h"
#include "xmalloc.h"

char *
ticks_dir(void)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (x != NULL && *x == '/')
		return xasprintf("%s/rankwatch/checklists", x);
	return xasprintf("%s/.local/state/rankwatch/checklists", home ? home : "/tmp");
}

char *
ticks_key(const char *const *paths, size_t n)
{
	char **abs = xcalloc(n + 1, sizeof *abs), real[PATH_MAX];

	uint64_t h = 1469598103934665603ULL;
	const char *base = "stdin", *s;
	size_t i;
	char *key, *p;

	size_t m = 0;
	struct stat sb;

	/* the run is the folder that holds its logs: a folder given, or the
	 * folder of a file given, resolved; once each */
	for (i = 0; i < n; i++) {
		char *dir = NULL;

		if (strcmp(paths[i], "-") == 0)
			dir = xstrdup("stdin");
		else if (stat(paths[i], &sb) == 0 && !S_ISDIR(sb.st_mode)) {
			const char *sl = strrchr(paths[i], '/');
			char *parent = sl == NULL ? xstrdup(".") : sl == paths[i] ? xstrdup("/") :
			    xstrndup(paths[i], (size_t)(sl - paths[i]));

			dir = xstrdup(realpath(parent, real) ? real : parent);
			free(parent);
		} else
			dir = xstrdup(realpath(paths[i], real) ? real : paths[i]);
		abs[m++] = dir;
	}
	qsort(abs, m, sizeof *abs, buf_strp_cmp);
	for (i = 0; i + 1 < m; i++)
		if (strcmp(abs[i], abs[i + 1]) == 0) {
			free(abs[i + 1]);
			memmove(abs + i + 1, abs + i + 2, (m - i - 2) * sizeof *abs);
			m--;
			i--;
		}
	n = m;
	for (i = 0; i < n; i++) {
		for (s = abs[i]; *s; s++) {
			h ^= (unsigned char)*s;
			h *= 1099511628211ULL;
		}
		h ^= 0xff;
		h *= 1099511628211ULL;
	}
	if (n > 0) {
		base = strrchr(abs[0], '/');
		base = base && base[1] ? base + 1 : abs[0];
	}
	key = xasprintf("%.40s-%016llx", base, (unsigned long long)h);
	for (p = key; *p; p++)
		if (*p == '/' || *p == ' ' || *p == '\t')
			*p = '_';
	for (i = 0; i < n; i++)
		free(abs[i]);
	free(abs);
	return key;
}

static char *
unescape(const char *s)
{
	struct buf b = BUF_INIT;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			buf_addc(&b, *s == 't' ? '\t' : *s == 'n' ? '\n' : *s);
		} else
			buf_addc(&b, *s);
	}
	return buf_detach(&b);
}

/* A step number in the file: decimal, 0..100000. */
static int
number(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return end != s && *end == '\0' && errno == 0 && *out >= 0 && *out <= 100000;
}

static void
escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			buf_adds(b, "\\t");
		else if (*s == '\n')
			buf_adds(b, "\\n");
		else if (*s == '\\')
			buf_adds(b, "\\\\");
		else
			buf_addc(b, *s);
	}
}

struct ticks *
ticks_open(const char *dir, const char *key, const char *run)
{
	struct ticks *t = xcalloc(1, sizeof *t);
	struct buf b = BUF_INIT;

	t->path = xasprintf("%s/%s", dir, key);
	t->run = xstrdup(run ? run : "");
	if (buf_slurp(&b, t->path, TICKS_FILE_MAX) == 0)
		ticks_parse(t, b.s, b.len);
	buf_release(&b);
	return t;
}

void
ticks_parse(struct ticks *t, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	char *line;

	for (; p < end && t->n < TICKS_MAX; p = nl + 1) {
		char *f[4] = { NULL }, *q, *tab, *note;
		long step, checked;
		int i;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl == p || *p == '#')
			continue;
		line = xstrndup(p, (size_t)(nl - p));
		for (i = 0, q = line; i < 4 && q != NULL; i++) {
			f[i] = q;
			if ((tab = strchr(q, '\t')) != NULL)
				*tab++ = '\0';
			q = tab;
		}
		if (f[2] != NULL && *f[0] != '\0' && number(f[1], &step) && number(f[2], &checked)) {
			char *entry = unescape(f[0]);

			note = f[3] && *f[3] ? unescape(f[3]) : NULL;
			ticks_set(t, entry, (int)step, checked != 0, note);
			free(entry);
			free(note);
		}
		free(line);
	}
}

void
ticks_free(struct ticks *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->v[i].entry);
		free(t->v[i].note);
	}
	free(t->v);
	free(t->path);
	free(t->run);
	free(t);
}

const struct tick *
ticks_get(const struct ticks *t, const char *entry, int step)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].step == step && strcmp(t->v[i].entry, entry) == 0)
			return &t->v[i];
	return NULL;
}

void
ticks_set(struct ticks *t, const char *entry, int step, int checked, const char *note)
{
	struct tick *k = (struct tick *)ticks_get(t, entry, step);

	if (k == NULL) {
		XGROW(t->v, t->cap, t->n + 1);
		k = &t->v[t->n++];
		k->entry = xstrdup(entry);
		k->step = step;
		k->note = NULL;
	}
	k->checked = checked;
	free(k->note);
	k->note = note && *note ? xstrdup(note) : NULL;
}

static int
mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = 0, first = 0;

	/* The first failure is the reason ("Read-only file system"); the
	 * folders below it then fail only because it is missing. */
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0700) != 0 && errno != EEXIST && rc == 0) {
				rc = -1;
				first = errno;
			}
			*s = '/';
		}
	if (mkdir(p, 0700) != 0 && errno != EEXIST && rc == 0) {
		rc = -1;
		first = errno;
	}
	free(p);
	if (rc != 0)
		errno = first;
	return rc;
}

void
ticks_format(const struct ticks *t, struct buf *b)
{
	size_t i;

	buf_adds(b, "# rankwatch checklist state for: ");
	escape(b, t->run);
	buf_adds(b, "\n# entry\tstep\tchecked\tnote\n");
	for (i = 0; i < t->n; i++) {
		if (t->v[i].entry[0] == '#')
			buf_addc(b, '\\');	/* not a comment */
		escape(b, t->v[i].entry);
		buf_printf(b, "\t%d\t%d\t", t->v[i].step, t->v[i].checked);
		if (t->v[i].note)
			escape(b, t->v[i].note);
		buf_addc(b, '\n');
	}
}

int
ticks_save(const struct ticks *t, char **why)
{
	struct buf b = BUF_INIT;
	char *dir = xstrdup(t->path), *slash = strrchr(dir, '/'), *tmp;
	FILE *fp;
	int rc = 0;

	if (slash != NULL)
		*slash = '\0';
	if (mkdirs(dir) != 0) {
		*why = xasprintf("checklist not saved: %s (creating %s)", strerror(errno), dir);
		free(dir);
		return -1;
	}
	free(dir);
	ticks_format(t, &b);
	tmp = xasprintf("%s.tmp.%ld", t->path, (long)getpid());
	if ((fp = fopen(tmp, "w")) == NULL)
		rc = -1;
	else {
		if (fwrite(b.s, 1, b.len, fp) != b.len)
			rc = -1;
		if (fclose(fp) != 0)
			rc = -1;
	}
	if (rc == 0 && rename(tmp, t->path) != 0)
		rc = -1;
	if (rc != 0) {
		*why = xasprintf("checklist not saved: %s (writing %s)", strerror(errno), t->path);
		unlink(tmp);
	}
	free(tmp);
	buf_release(&b);
	return rc;
}
