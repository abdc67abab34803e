/* run.c: wire sources, lines, matches, events and the incident together.
 * The files are read by scanners (core/scan.c) on the threads of a pass
 * (core/pass.c); this file applies what they found to the incident, in
 * file order. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "envelope.h"
#include "event.h"
#include "run.h"
#include "pass.h"
#include "scan.h"
#include "stream.h"
#include "xmalloc.h"

#define PROBE_SAMPLE	(1024 * 1024)	/* bytes of the run the prefilter tunes on */
#define PROBE_MID	16384		/* of them from the middle of each file */

/* Events whose line had no time of its own borrow the previous line's
 * (a lower bound). They reach the incident at once, so that a live view
 * shows them; the next line of the same file with a time of its own
 * bounds them from above, whenever it arrives: the same bytes give the
 * same bounds however they were sliced. */
#define PENDING_MAX	64

struct pending {
	struct event_ref *v;	/* at most PENDING_MAX */
	uint32_t	  n, cap;
};

/* src's pending list; NULL when it has none and create is 0. */
static struct pending *
pending_of(struct run *r, const struct source *src, int create)
{
	size_t i;

	if (r->npending > 0 && imap_get(&r->pending_at, (int)src->id, &i))
		return &r->pending[i];
	if (!create)
		return NULL;
	XGROW(r->pending, r->cappending, r->npending + 1);
	memset(&r->pending[r->npending], 0, sizeof *r->pending);
	imap_set(&r->pending_at, (int)src->id, r->npending);
	return &r->pending[r->npending++];
}

static void
pending_bound(struct run *r, struct source *src, const struct stamp *upper)
{
	struct pending *p = pending_of(r, src, 0);
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		incident_bound_event(r->incident, &p->v[i], upper);
	p->n = 0;
}

/* --- applying what a scanner found (core/scan.h) ------------------------ */

static void
apply_line(struct run *r, struct source *src, const struct rec *rc)
{
	/* a copy of a blank line, not a memset: one for each few lines */
	static const struct line blank;
	struct line ln = blank;

	ln.rank = rc->rank;
	ln.host = rc->u.host;
	ln.hostlen = rc->hostlen;
	ln.pid = rc->pid;
	ln.ts = rc->ts;
	incident_add_lines(r->incident, &ln, rc->lines, rc->n.bytes, &rc->latest);
	if (stamp_own(&ln.ts) && r->npending > 0)
		pending_bound(r, src, &ln.ts);
}

static void
apply_event(struct run *r, struct source *src, struct event *ev)
{
	r->matches++;
	if (r->on_event != NULL)
		r->on_event(r->on_event_arg, ev);
	if (!(ev->ts.flags & STAMP_INHERITED))
		(void)incident_add_event(r->incident, ev);
	else if ((ev = incident_add_event(r->incident, ev)) != NULL) {
		struct pending *p = pending_of(r, src, 1);

		if (p->n == PENDING_MAX) {	/* the oldest stays unbounded */
			memmove(p->v, p->v + 1, (PENDING_MAX - 1) * sizeof *p->v);
			p->n--;
		}
		if (p->n == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 1;
			p->v = xrealloc(p->v, p->cap * sizeof *p->v);
		}
		p->v[p->n++] = incident_event_ref(r->incident, ev);
	}
}

/* Tell the incident, the notes and the pending list what batch b found,
 * in its order; the events are the incident's from now on. */
static void
apply_batch(struct run *r, struct batch *b)
{
	struct source *src = b->src;
	size_t i, note = 0;

	for (i = 0; i < b->n; i++) {
		struct rec *rc = &b->v[i];

		switch (rc->kind) {
		case REC_LINE:
			apply_line(r, src, rc);
			break;
		case REC_EVENT:
			apply_event(r, src, rc->u.ev);
			rc->u.ev = NULL;	/* the incident's now */
			break;
		case REC_GAVE_UP:
			if (r->match_errors++ < 20)
				notes_add(&r->notes, NOTE_WARN, src->where.name, rc->n.lineno, 0,
				    "signature %s gave up on this line (PCRE2 error %d: match "
				    "limit); the line was not matched against it",
				    rc->u.sig->fullid, (int)rc->pid);
			break;
		case REC_NOTE:
			if (note < b->notes.n) {
				const struct note *n = &b->notes.v[note];

				notes_add(&r->notes, n->level, n->file, n->line, n->col, "%s", n->text);
			} else
				r->notes.dropped++;
			note++;
			break;
		}
	}
	if (b->bytes > 0)
		r->bytes += (uint64_t)b->bytes;
}

/* The year of year-less lines: take it from a dated line of the same file
 * (in its first 4 KiB, or else 16 KiB), or else of the run, before falling
 * back on mtime. The run's is the latest such line of its first
 * PROBE_FILES files, read here with a little of each for matcher_tune;
 * every other file's own is found in its first chunk as it is read
 * (core/scan.c), so that each file is opened once. */
#define PROBE_FILES	64

static int
probe_anchor(struct source *src, char *buf, int64_t *anchor, struct buf *sample)
{
	char pbuf[PATH_MAX];
	const char *path;
	int fd, found;
	ssize_t n, more = 0;

	if (src->kind != SOURCE_LOG)
		return 0;
	if ((path = event_where_path(&src->where, pbuf, sizeof pbuf)) == NULL ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return 0;
	n = read(fd, buf, 4096);
	if (n == 4096 && (more = read(fd, buf + n, 16384 - 4096)) < 0)
		more = 0;
	if (n <= 0) {
		close(fd);
		return 0;
	}
	if (sample != NULL && sample->len < PROBE_SAMPLE) {
		struct stat sb;
		ssize_t mid;

		buf_add(sample, buf, (size_t)(n + more));
		/* and a piece of its middle: a file's head is its start-up,
		 * its bulk what it prints each step */
		if (fstat(fd, &sb) == 0 && sb.st_size > 4 * PROBE_MID &&
		    (mid = pread(fd, buf + 16384, PROBE_MID, sb.st_size / 2 & ~(off_t)4095)) > 0)
			buf_add(sample, buf + 16384, (size_t)mid);
	}
	close(fd);
	found = scan_head_anchor(buf, (size_t)(n + more), anchor);
	src->head = found ? HEAD_DATED : HEAD_UNDATED;
	src->head_anchor = found ? *anchor : 0;
	return found;
}

/* Why no file was found: the first path that cannot be read and why
 * ("/x/run: No such file or directory"), else the paths that held none. */
static char *
nothing_found(const struct run *r, const char *const *paths, size_t npaths)
{
	size_t i, errors = 0;
	char *s = NULL;

	for (i = 0; i < r->notes.n; i++) {
		const struct note *n = &r->notes.v[i];

		if (n->level >= NOTE_ERROR && errors++ == 0)
			s = n->file != NULL ? xasprintf("%s: %s", n->file, n->text) :
			    xstrdup(n->text);
	}
	if (s != NULL && errors == 1)
		return s;
	if (s != NULL) {
		char *t = xasprintf("%s (and %zu more path%s that cannot be read)", s, errors - 1,
		    errors == 2 ? "" : "s");

		free(s);
		return t;
	}
	if (npaths == 1)
		return xasprintf("%s: no log files found", paths[0]);
	return xasprintf("%s and %zu more: no log files found", paths[0], npaths - 1);
}

/* A command that names one pod (kubectl logs -f job-worker-3): the rank
 * (or node rank) its name gives, for every line of its output. */
static int
cmd_pod_index(const struct rulebook *rb, struct source *s)
{
	const char *p = s->st != NULL ? s->st->cmd : s->where.name, *e, *q;
	int index = -1;

	while (*p != '\0' && index < 0) {
		while (*p == ' ' || *p == '\'' || *p == '"')
			p++;
		for (e = p; *e != '\0' && *e != ' ' && *e != '\'' && *e != '"'; e++)
			;
		for (q = p; q < e; q++)	/* kubectl's pod/NAME, a path's basename */
			if (*q == '/')
				p = q + 1;
		if (e > p)
			index = envelope_pod_index(rb->layouts, &source_reader(s)->env, p, (size_t)(e - p));
		p = e;
	}
	return index;
}

struct run *
run_new(const struct rulebook *rb, const char *const *paths, size_t npaths,
    const struct run_options *opt, char **why)
{
	struct run *r = xcalloc(1, sizeof *r);
	struct foundlist fl;
	struct buf t = BUF_INIT;
	size_t i;
	int64_t run_anchor = 0, a;
	int have_run_anchor = 0;
	struct buf sample = BUF_INIT;

	memset(&fl, 0, sizeof fl);
	notes_init(&r->notes);
	r->rb = rb;
	r->buf = xmalloc(SOURCE_CHUNK);
	for (i = 0; i < npaths; i++)
		buf_printf(&t, "%s%s", i ? " " : "", paths[i]);
	for (i = 0; opt != NULL && i < opt->ncmds; i++)
		buf_printf(&t, "%s%s", t.len ? " " : "", opt->cmds[i]);
	r->title = buf_detach(&t);
	r->paths = xcalloc(npaths + 1, sizeof *r->paths);
	for (i = 0; i < npaths; i++)
		r->paths[i] = xstrdup(paths[i]);
	r->npaths = npaths;
	r->all_attempts = opt ? opt->all_attempts : 0;
	r->jobs = opt != NULL && opt->jobs > 0 ? opt->jobs : pass_default_jobs();
	r->once = opt != NULL && opt->once;
	discover(paths, npaths, opt ? opt->all_attempts : 0, &fl, &r->notes);
	r->layout = fl.n == 0 && opt != NULL && opt->ncmds > 0 ? "commands" : fl.layout;
	for (i = 0; i < fl.n; i++) {
		struct found *f = &fl.v[i];
		struct source *s = source_new_in(&r->dirs, f->path, f->name, f->kind, f->rank,
		    f->node, f->nproc);

		XGROW(r->sources, r->capsources, r->nsources + 1);
		s->id = r->nsources;
		r->sources[r->nsources++] = s;
		if (i < PROBE_FILES && probe_anchor(s, r->buf, &a, &sample)) {
			source_reader(s)->ls.anchor = a;
			s->rd->ls.anchor_dated = 1;
			if (!have_run_anchor || a > run_anchor)
				run_anchor = a;
			have_run_anchor = 1;
		}
	}
	for (i = 0; opt != NULL && i < opt->ncmds; i++) {
		struct source *s = source_new_stream(opt->cmds[i], -1, opt->spool_dir, &r->notes);

		s->rd->ls.pod_label = cmd_pod_index(rb, s);
		XGROW(r->sources, r->capsources, r->nsources + 1);
		s->id = r->nsources;
		r->sources[r->nsources++] = s;
	}
	for (i = 0; i < r->nsources; i++)
		if (r->sources[i]->kind == SOURCE_STDIN && opt != NULL && opt->spool_dir != NULL)
			source_spool(r->sources[i], opt->spool_dir, &r->notes);
	for (i = 0; i < r->nsources && i < PROBE_FILES; i++)
		if (have_run_anchor && !source_reader(r->sources[i])->ls.anchor_dated) {
			r->sources[i]->rd->ls.anchor = run_anchor;
			r->sources[i]->rd->ls.anchor_dated = 1;
		}
	r->anchor = run_anchor;
	r->anchor_dated = have_run_anchor;
	foundlist_release(&fl);
	if (opt != NULL && opt->matcher != NULL)
		r->matcher = opt->matcher;
	else {
		r->matcher = matcher_new(rb);
		r->own_matcher = 1;
		if (sample.len > 0)
			matcher_tune(r->matcher, sample.s, sample.len);
	}
	buf_release(&sample);
	r->incident = incident_new(rb);
	incident_timeline(r->incident, !r->once);	/* a report shows none */
	if (r->nsources == 0) {
		*why = nothing_found(r, paths, npaths);
		run_free(r);
		return NULL;
	}
	return r;
}

void
run_free(struct run *r)
{
	size_t i;

	if (r == NULL)
		return;
	pass_end(r->pass);	/* a pass left unfinished */
	for (i = 0; i < r->nsources; i++) {
		scan_source_release(r->sources[i]);
		source_free(r->sources[i]);
	}
	free(r->sources);
	for (i = 0; i < r->npending; i++)
		free(r->pending[i].v);
	free(r->pending);
	imap_release(&r->pending_at);
	if (r->own_matcher)
		matcher_free(r->matcher);
	else if (r->matcher != NULL)
		matcher_scan(r->matcher, NULL, 0);	/* forget this run's block */
	incident_free(r->incident);
	notes_release(&r->notes);
	free(r->buf);
	free(r->title);
	for (i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	free(r->paths);
	strset_release(&r->dirs);	/* after the sources and events */
	free(r);
}

/* After a source was read to its end for now. */
static void
source_done(struct run *r, struct source *s, int final)
{
	struct pending *p = pending_of(r, s, 0);

	if (final && s->rd->ls.group_ranked > 0 && !s->noted_group) {
		s->noted_group = 1;
		notes_add(&r->notes, NOTE_INFO, s->where.name, 0, 0,
		    "%lu line%s carry only a process-group rank ([Rank N], [PG ... Rank N], a serving "
		    "worker's TP rank); "
		    "it was taken as the global rank, which holds only for the default group",
		    s->rd->ls.group_ranked, s->rd->ls.group_ranked == 1 ? "" : "s");
	}
	/* No upper bound from mtime: a copied or checked-out run has
	 * meaningless mtimes, and reports must not depend on them. Events
	 * still unbounded stay so until a timed line follows them; at the
	 * end of a finished run none will. */
	if (p != NULL && (final || p->n == 0)) {
		/* (and a followed file's that nothing waits in: a run of
		 * 100,000 files would keep one list each) */
		free(p->v);
		memset(p, 0, sizeof *p);
	} else if (p != NULL && p->cap > p->n) {
		/* a followed file's few waiting events, to the byte: most
		 * files of a big run have one or two, for as long as it runs */
		p->v = xrealloc(p->v, p->n * sizeof *p->v);
		p->cap = p->n;
	}
	if (!final)
		source_sleep(s);
	if (final && r->once) {
		scan_source_release(s);
		source_retire(s);
	}
}

/* Never read: failed before any of it could be (a file that was never
 * readable, a command that failed). */
static int
never_read(const struct source *s)
{
	return s->failed && !s->opened;
}

/* What the incident must know of the sources that could not be read. */
static void
unread(struct run *r)
{
	const char *first = NULL;
	size_t i, n = 0;

	for (i = 0; i < r->nsources; i++)
		if (never_read(r->sources[i]) && n++ == 0)
			first = r->sources[i]->where.name;
	incident_unread(r->incident, n, first);
}

int
run_scan_step(struct run *r, uint64_t budget, int final)
{
	uint64_t used = 0;
	struct batch *b;

	if (r->pass == NULL)
		r->pass = pass_start(r->sources, r->nsources, final, r->jobs, r->matcher,
		    r->anchor_dated ? &r->anchor : NULL);
	while ((b = pass_next(r->pass)) != NULL) {
		apply_batch(r, b);
		if (b->bytes > 0)
			used += (uint64_t)b->bytes;
		if (b->src->head == HEAD_DATED && (!r->anchor_dated || b->src->head_anchor > r->anchor)) {
			r->anchor = b->src->head_anchor;	/* for the next pass's files */
			r->anchor_dated = 1;
		}
		if (b->last)
			source_done(r, b->src, final);
		pass_recycle(r->pass, b);
		r->cursor = pass_at(r->pass);
		if (budget != 0 && used >= budget)
			return 1;
	}
	pass_end(r->pass);
	r->pass = NULL;
	r->cursor = 0;
	unread(r);
	/* the first 20 were named with their lines; say how many in all */
	if (r->match_errors > 20 && r->match_errors != r->match_errors_told) {
		notes_add(&r->notes, NOTE_WARN, NULL, 0, 0,
		    "signatures gave up (PCRE2 match limit) on %lu lines in all; the first 20 "
		    "are named above", r->match_errors);
		r->match_errors_told = r->match_errors;
	}
	return 0;
}

uint64_t
run_scan(struct run *r, int final)
{
	uint64_t before = r->bytes;

	while (run_scan_step(r, 0, final))
		;
	return r->bytes - before;
}

void
run_follow(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nsources; i++)
		if (SOURCE_IS_STREAM(r->sources[i]) && r->sources[i]->st->fd >= 0)
			stream_nonblock(r->sources[i]->st->fd);
}

size_t
run_stream_fds(const struct run *r, int *fds, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsources && n < max; i++)
		if (SOURCE_IS_STREAM(r->sources[i]) && !r->sources[i]->done &&
		    r->sources[i]->st->fd >= 0)
			fds[n++] = r->sources[i]->st->fd;
	return n;
}

int
run_streams_ended(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->npaths; i++)
		if (strcmp(r->paths[i], "-") != 0)
			return 0;
	for (i = 0; i < r->nsources; i++)
		if (!SOURCE_IS_STREAM(r->sources[i]) || !r->sources[i]->done)
			return 0;
	return r->nsources > 0;
}

/* A file that appears under a new name may be one already read under its
 * old one (rank0.log rotated to rank0.log.1): what was read of it is not
 * read again. */
static void
already_read(struct run *r, struct source *s)
{
	struct stat sb;
	char pbuf[PATH_MAX];
	const char *path = event_where_path(&s->where, pbuf, sizeof pbuf);
	size_t i;

	if (s->kind != SOURCE_LOG || path == NULL || stat(path, &sb) != 0)
		return;
	for (i = 0; i < r->nsources; i++) {
		const struct source *o = r->sources[i];
		struct source_file_id id;
		uint64_t done;

		if (!source_file_id(o, &id))	/* not read yet, or retired (a
						 * report's, which finds no file anew) */
			continue;
		/* its old name may not have noticed the rotation yet */
		if (id.ino != 0 && id.ino == sb.st_ino && id.dev == sb.st_dev)
			done = id.offset;
		else if (id.prev_ino != 0 && id.prev_ino == sb.st_ino && id.prev_dev == sb.st_dev)
			done = id.prev_offset;
		else
			continue;
		source_reader(s)->offset = done;	/* whole lines: a line's start */
		s->rd->dev = sb.st_dev;
		s->rd->ino = sb.st_ino;
		s->opened = 1;
		notes_add(&r->notes, NOTE_INFO, s->where.name, 0, 0,
		    "is %s, rotated; reading only what was added to it", o->where.name);
		return;
	}
}

size_t
run_rediscover(struct run *r)
{
	struct foundlist fl;
	struct notes quiet;
	char **have = xcalloc(r->nsources + 1, sizeof *have), pbuf[PATH_MAX];
	size_t i, added = 0, n = r->nsources;

	memset(&fl, 0, sizeof fl);
	notes_init(&quiet);	/* problems were said the first time */
	for (i = 0; i < n; i++) {
		const char *p = source_path(r->sources[i], pbuf, sizeof pbuf);

		have[i] = xstrdup(p != NULL ? p : "");
	}
	qsort(have, n, sizeof *have, buf_strp_cmp);
	discover((const char *const *)r->paths, r->npaths, r->all_attempts, &fl, &quiet);
	for (i = 0; i < fl.n; i++) {
		struct found *f = &fl.v[i];
		struct source *s;

		if (f->kind == SOURCE_STDIN || bsearch(&f->path, have, n, sizeof *have, buf_strp_cmp))
			continue;
		s = source_new_in(&r->dirs, f->path, f->name, f->kind, f->rank, f->node,
		    f->nproc);
		already_read(r, s);
		XGROW(r->sources, r->capsources, r->nsources + 1);
		s->id = r->nsources;
		r->sources[r->nsources++] = s;
		notes_add(&r->notes, NOTE_INFO, s->where.name, 0, 0, "appeared; reading it");
		added++;
	}
	for (i = 0; i < n; i++)
		free(have[i]);
	free(have);
	foundlist_release(&fl);
	notes_release(&quiet);
	return added;
}

size_t
run_readable(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsources; i++)
		if (!never_read(r->sources[i]) && !r->sources[i]->skipped)
			n++;
	return n;
}
