/* discover.c: walk the run's folders and give each log file its rank.
 * Only names and stat() here; no file is opened. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "discover.h"
#include "strset.h"
#include "xmalloc.h"

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static const char *
basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Files worth reading when found inside a folder. */
static int
is_log_name(const char *base)
{
	static const char *const exts[] = { ".log", ".out", ".err", ".txt",
	    ".stdout", ".stderr", ".json", ".jsonl", ".ndjson", NULL };
	const char *dot;
	size_t i;

	if (strcmp(base, "error.json") == 0)
		return 1;
	for (i = 0; exts[i] != NULL; i++)
		if (has_suffix(base, exts[i]))
			return 1;
	dot = strrchr(base, '.');
	/* No extension, or a numeric one (rotated "train.log.1", "slurm.3"). */
	if (dot == NULL)
		return 1;
	for (dot++; *dot != '\0'; dot++)
		if (!isdig(*dot))
			return 0;
	return 1;
}

static void
add(struct foundlist *fl, const char *path, const char *name,
    enum source_kind kind)
{
	struct found *f;

	XGROW(fl->v, fl->cap, fl->n + 1);
	f = &fl->v[fl->n++];
	f->path = xstrdup(path);
	f->name = xstrdup(name);
	f->kind = kind;
	f->rank = -1;
	f->node = -1;
	f->nproc = 0;
	f->layout = kind == SOURCE_STDIN ? "stdin" : "combined";
}

/* Files and folders already found, by device and inode: a symbolic link
 * loop, a link to a file beside it or two paths given for one run never
 * read anything twice. */
struct visited {
	struct fileid {
		dev_t	dev;
		ino_t	ino;
		int	used;
	}	*v;		/* open addressing, capacity a power of 2 */
	size_t	 n, cap;
};

static size_t
fileid_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4fULL;

	return (size_t)(h ^ (h >> 29));
}

/* 1 when the file was seen before; else remember it. */
static int
seen_before(struct visited *vis, const struct stat *sb)
{
	size_t i;

	if (2 * (vis->n + 1) > vis->cap) {
		struct visited big = { NULL, 0, vis->cap ? 2 * vis->cap : 64 };

		big.v = xcalloc(big.cap, sizeof *big.v);
		for (i = 0; i < vis->cap; i++)
			if (vis->v[i].used) {
				size_t j = fileid_hash(vis->v[i].dev, vis->v[i].ino) & (big.cap - 1);

				while (big.v[j].used)
					j = (j + 1) & (big.cap - 1);
				big.v[j] = vis->v[i];
			}
		big.n = vis->n;
		free(vis->v);
		*vis = big;
	}
	for (i = fileid_hash(sb->st_dev, sb->st_ino) & (vis->cap - 1); vis->v[i].used;
	    i = (i + 1) & (vis->cap - 1))
		if (vis->v[i].dev == sb->st_dev && vis->v[i].ino == sb->st_ino)
			return 1;
	vis->v[i].dev = sb->st_dev;
	vis->v[i].ino = sb->st_ino;
	vis->v[i].used = 1;
	vis->n++;
	return 0;
}

static void
walk(struct foundlist *fl, const char *dir, dev_t dev, const char *rel, int depth,
    struct notes *ns, size_t *skipped, struct visited *vis)
{
	struct dirent **ents = NULL;
	int n, i;

	if (depth > DISCOVER_MAX_DEPTH) {
		notes_add(ns, NOTE_WARN, rel[0] ? rel : dir, 0, 0,
		    "more than %d folders deep; not searched further", DISCOVER_MAX_DEPTH);
		return;
	}
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		notes_add(ns, NOTE_ERROR, rel[0] ? rel : dir, 0, 0, "cannot list: %s",
		    strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;
		char *path, *r;
		struct stat sb;

		if (nm[0] == '.') {
			free(ents[i]);
			continue;
		}
		path = xasprintf("%s/%s", dir, nm);
		r = rel[0] ? xasprintf("%s/%s", rel, nm) : xstrdup(nm);
		memset(&sb, 0, sizeof sb);
		if (ents[i]->d_type == DT_REG) {
			/* what the folder listing says is enough: no stat of
			 * each of 100,000 files (on NFS, a round trip each) */
			sb.st_dev = dev;
			sb.st_ino = ents[i]->d_ino;
			sb.st_mode = S_IFREG;
		} else if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && stat(path, &sb) != 0)
			sb.st_mode = S_IFLNK;	/* dangling */
		if (S_ISLNK(sb.st_mode))
			notes_add(ns, NOTE_WARN, r, 0, 0, "dangling symbolic link; skipped");
		else if (S_ISDIR(sb.st_mode)) {
			if (!seen_before(vis, &sb))
				walk(fl, path, sb.st_dev, r, depth + 1, ns, skipped, vis);
		} else if (!S_ISREG(sb.st_mode))
			notes_add(ns, NOTE_WARN, r, 0, 0, "not a regular file; skipped");
		else if (is_log_name(nm)) {
			if (!seen_before(vis, &sb))
				add(fl, path, r, strcmp(nm, "error.json") == 0 ?
				    SOURCE_ERRORJSON : SOURCE_LOG);
		}
		else
			(*skipped)++;
		free(path);
		free(r);
		free(ents[i]);
	}
	free(ents);
}

/* --- torchrun trees --------------------------------------------------- */

/* ".../<node-key>/attempt_N/<local>/{stdout.log,stderr.log,error.json}":
 * returns 1 and fills attempt, local and the length of the node key. */
static int
torchrun_shape(const char *name, int *attempt, int *local, size_t *keylen)
{
	const char *base = basename_of(name), *p, *q;
	size_t blen;

	if (strcmp(base, "stdout.log") != 0 && strcmp(base, "stderr.log") != 0 &&
	    strcmp(base, "error.json") != 0)
		return 0;
	if (base - name < 2)
		return 0;
	/* the local rank folder */
	q = base - 1;	/* the '/' */
	p = q;
	while (p > name && p[-1] != '/')
		p--;
	if (p == q)
		return 0;
	for (blen = 0; p + blen < q; blen++)
		if (!isdig(p[blen]))
			return 0;
	*local = atoi(p);
	/* attempt_N */
	q = p - 1;
	if (q <= name)
		return 0;
	p = q;
	while (p > name && p[-1] != '/')
		p--;
	if ((size_t)(q - p) < 9 || strncmp(p, "attempt_", 8) != 0 || !isdig(p[8]))
		return 0;
	*attempt = atoi(p + 8);
	*keylen = (size_t)(p - name);
	return 1;
}

/* Natural order: "node9" before "node10". */
static int
natcmp(const char *a, const char *b, size_t alen, size_t blen)
{
	size_t i = 0, j = 0;

	while (i < alen && j < blen) {
		if (isdig(a[i]) && isdig(b[j])) {
			unsigned long long x = 0, y = 0;

			while (i < alen && isdig(a[i]))
				x = x * 10 + (unsigned)(a[i++] - '0');
			while (j < blen && isdig(b[j]))
				y = y * 10 + (unsigned)(b[j++] - '0');
			if (x != y)
				return x < y ? -1 : 1;
		} else {
			if (a[i] != b[j])
				return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
			i++;
			j++;
		}
	}
	return (alen - i) == (blen - j) ? 0 : (alen - i) < (blen - j) ? -1 : 1;
}

struct tkey {
	const char	*key;
	size_t		 len;
	int		 maxlocal;
	int		 maxattempt;
};

static void
layout_torchrun(struct foundlist *fl, int all_attempts)
{
	struct tkey *keys = NULL;
	size_t nkeys = 0, cap = 0, i, k;
	int attempt, local;
	size_t keylen;

	for (i = 0; i < fl->n; i++) {
		if (!torchrun_shape(fl->v[i].name, &attempt, &local, &keylen))
			continue;
		for (k = 0; k < nkeys; k++)
			if (keys[k].len == keylen &&
			    memcmp(keys[k].key, fl->v[i].name, keylen) == 0)
				break;
		if (k == nkeys) {
			XGROW(keys, cap, nkeys + 1);
			keys[nkeys].key = fl->v[i].name;
			keys[nkeys].len = keylen;
			keys[nkeys].maxlocal = -1;
			keys[nkeys].maxattempt = -1;
			nkeys++;
		}
		if (local > keys[k].maxlocal)
			keys[k].maxlocal = local;
		if (attempt > keys[k].maxattempt)
			keys[k].maxattempt = attempt;
	}
	/* Nodes in natural order of their folder. */
	for (i = 1; i < nkeys; i++)
		for (k = i; k > 0 && natcmp(keys[k - 1].key, keys[k].key,
		    keys[k - 1].len, keys[k].len) > 0; k--) {
			struct tkey t = keys[k];

			keys[k] = keys[k - 1];
			keys[k - 1] = t;
		}
	for (i = 0; i < fl->n; i++) {
		struct found *f = &fl->v[i];

		if (!torchrun_shape(f->name, &attempt, &local, &keylen))
			continue;
		for (k = 0; k < nkeys; k++)
			if (keys[k].len == keylen && memcmp(keys[k].key, f->name, keylen) == 0)
				break;
		if (!all_attempts && attempt != keys[k].maxattempt) {
			f->layout = NULL;	/* dropped below */
			fl->skipped_attempts++;
			continue;
		}
		f->layout = "torchrun";
		f->nproc = keys[k].maxlocal + 1;
		f->node = nkeys > 1 ? (int)k : 0;
		f->rank = f->node * f->nproc + local;
	}
	free(keys);
	/* Drop older attempts. */
	for (i = k = 0; i < fl->n; i++) {
		if (fl->v[i].layout == NULL) {
			free(fl->v[i].path);
			free(fl->v[i].name);
			continue;
		}
		fl->v[k++] = fl->v[i];
	}
	fl->n = k;
}

/* --- names with numbers ----------------------------------------------- */

int
discover_keyword_rank(const char *base)
{
	static const char *const kw[] = { "rank", "worker", "proc", "process",
	    "task", "gpu", NULL };
	const char *p;
	size_t i, l;

	for (p = base; *p != '\0'; p++) {
		if (p != base && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')))
			continue;
		for (i = 0; kw[i] != NULL; i++) {
			l = strlen(kw[i]);
			if (strncasecmp(p, kw[i], l) == 0) {
				const char *q = p + l;

				if (*q == '-' || *q == '_' || *q == '.')
					q++;
				if (isdig(*q)) {
					const char *e = q;

					while (isdig(*e))
						e++;
					if ((e - q) <= 7 && (*e == '\0' || !((*e >= 'a' &&
					    *e <= 'z') || (*e >= 'A' && *e <= 'Z')) ||
					    *e == '.'))
						return atoi(q);
				}
			}
		}
	}
	return -1;
}

#define MAXRUNS 8

/* (88 bytes, its template kept once in a set: a folder of 131,072
 * numbered files) */
struct numbered {
	uint32_t	 idx;		/* into the foundlist */
	uint32_t	 dirlen;
	const char	*tmpl;		/* basename with digit runs as '#' */
	long		 nums[MAXRUNS];
	size_t		 cnt;
};

/* Split a basename into its template (into tmpls) and its numbers. */
static void
numbers_of(const char *base, struct numbered *nb, struct strset *tmpls)
{
	char tmpl[256];
	size_t t = 0;
	const char *p = base;

	nb->cnt = 0;
	while (*p != '\0' && t + 2 < sizeof tmpl) {
		if (isdig(*p)) {
			long v = 0;

			while (isdig(*p)) {
				if (v < 100000000)
					v = v * 10 + (*p - '0');
				p++;
			}
			if (nb->cnt < MAXRUNS)
				nb->nums[nb->cnt++] = v;
			tmpl[t++] = '#';
		} else
			tmpl[t++] = *p++;
	}
	nb->tmpl = strset_add(tmpls, tmpl, t);
}

static const struct foundlist *sort_fl;

static int
numbered_cmp(const void *a, const void *b)
{
	const struct numbered *x = a, *y = b;
	int c;

	if (x->dirlen != y->dirlen)
		return x->dirlen < y->dirlen ? -1 : 1;
	c = memcmp(sort_fl->v[x->idx].name, sort_fl->v[y->idx].name, x->dirlen);
	if (c != 0)
		return c;
	return strcmp(x->tmpl, y->tmpl);
}

static int
long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* Files of one folder sharing a name template: the rank is the last
 * number position whose values vary and are unique across the group. */
static void
layout_numbered(struct foundlist *fl)
{
	struct numbered *nb;
	struct strset tmpls = STRSET_INIT;
	long *vals;
	size_t n = 0, i, j, k, pos;

	/* the files a rank-named one does not tell: most often none */
	for (i = 0; i < fl->n; i++) {
		struct found *f = &fl->v[i];
		int kwr;

		if (f->rank >= 0 || f->kind != SOURCE_LOG)
			continue;
		if ((kwr = discover_keyword_rank(basename_of(f->name))) >= 0) {
			f->rank = kwr;
			f->layout = "rank-named";
			continue;
		}
		n++;
	}
	if (n < 2)
		return;
	nb = xcalloc(n, sizeof *nb);
	vals = xmalloc(sizeof *vals * n);
	for (i = n = 0; i < fl->n; i++) {
		struct found *f = &fl->v[i];

		if (f->rank >= 0 || f->kind != SOURCE_LOG)
			continue;
		nb[n].idx = (uint32_t)i;
		nb[n].dirlen = (uint32_t)(basename_of(f->name) - f->name);
		numbers_of(basename_of(f->name), &nb[n], &tmpls);
		if (nb[n].cnt > 0)
			n++;
	}
	sort_fl = fl;
	qsort(nb, n, sizeof *nb, numbered_cmp);
	for (i = 0; i < n; i = j) {
		size_t best = (size_t)-1;

		for (j = i + 1; j < n && numbered_cmp(&nb[i], &nb[j]) == 0; j++)
			;
		if (j - i < 2)
			continue;
		for (pos = 0; pos < nb[i].cnt; pos++) {
			int unique = 1;

			for (k = i; k < j; k++)
				vals[k - i] = nb[k].nums[pos];
			qsort(vals, j - i, sizeof *vals, long_cmp);
			for (k = 1; k < j - i && unique; k++)
				if (vals[k] == vals[k - 1])
					unique = 0;
			if (unique)
				best = pos;
		}
		if (best == (size_t)-1)
			continue;
		for (k = i; k < j; k++) {
			fl->v[nb[k].idx].rank = (int)nb[k].nums[best];
			fl->v[nb[k].idx].layout = "per-task";
		}
	}
	free(vals);
	free(nb);
	strset_release(&tmpls);
}

size_t
discover(const char *const *paths, size_t npaths, int all_attempts,
    struct foundlist *out, struct notes *ns)
{
	size_t i, skipped = 0, counts[5] = { 0 };
	static const char *const names[] = { "torchrun", "rank-named",
	    "per-task", "combined", "stdin" };
	struct stat sb;
	struct visited vis = { NULL, 0, 0 };

	for (i = 0; i < npaths; i++) {
		const char *p = paths[i];

		if (strcmp(p, "-") == 0) {
			add(out, "-", "(stdin)", SOURCE_STDIN);
			continue;
		}
		if (stat(p, &sb) != 0) {
			notes_add(ns, NOTE_ERROR, p, 0, 0, "%s", strerror(errno));
			continue;
		}
		if (seen_before(&vis, &sb))
			continue;
		if (S_ISDIR(sb.st_mode))
			walk(out, p, sb.st_dev, "", 0, ns, &skipped, &vis);
		else
			add(out, p, p, strcmp(basename_of(p), "error.json") == 0 ?
			    SOURCE_ERRORJSON : SOURCE_LOG);
	}
	free(vis.v);
	if (skipped)
		notes_add(ns, NOTE_INFO, NULL, 0, 0,
		    "%zu file%s that do not look like logs %s left out", skipped,
		    skipped == 1 ? "" : "s", skipped == 1 ? "was" : "were");
	layout_torchrun(out, all_attempts);
	if (out->skipped_attempts)
		notes_add(ns, NOTE_INFO, NULL, 0, 0,
		    "%zu file%s of earlier torchrun attempts left out (--all-attempts reads them)",
		    out->skipped_attempts, out->skipped_attempts == 1 ? "" : "s");
	layout_numbered(out);
	for (i = 0; i < out->n; i++) {
		size_t k;

		for (k = 0; k < 5; k++)
			if (strcmp(out->v[i].layout, names[k]) == 0)
				counts[k]++;
	}
	{
		size_t best = 0;

		for (i = 1; i < 5; i++)
			if (counts[i] > counts[best])
				best = i;
		out->layout = out->n ? names[best] : "none";
	}
	return out->n;
}

void
foundlist_release(struct foundlist *fl)
{
	size_t i;

	for (i = 0; i < fl->n; i++) {
		free(fl->v[i].path);
		free(fl->v[i].name);
	}
	free(fl->v);
	memset(fl, 0, sizeof *fl);
}
