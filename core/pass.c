/* pass.c: read a run's files on worker threads, merged in file order (see
 * pass.h for how the work is split and merged). */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "xmalloc.h"

/* Aligned so that no two workers' scanners (written each line) share a
 * cache line, or the pair of lines a core prefetches together. */
struct worker {
	_Alignas(128) struct pass *p;
	pthread_t	 th;
	struct scanner	 sc;
};

struct pass {
	struct source	**v;
	size_t		  n;
	int		  final;
	/* one thread: read on the caller's, file by file */
	struct scanner	  sc;
	struct matcher	 *m;
	size_t		  at;		/* the file being merged */
	struct batch	 *spare;
	/* threads */
	struct worker	 *w;
	int		  nw;		/* threads started (the caller's thread only) */
	int		  threaded;	/* set before any is started */
	pthread_mutex_t	  mu;
	pthread_cond_t	  ready;	/* a batch was queued */
	pthread_cond_t	  room;		/* a batch was taken, or the merge moved on */
	size_t		  next;		/* the next file to hand out */
	struct batch	**head, **tail;	/* per file: its read batches, oldest first */
	size_t		  ahead;	/* batches queued and not yet taken */
	size_t		  max_ahead;
	int		  merge_waits;	/* the merge waits for its file's batch */
	int		  room_waits;	/* workers wait for room */
	int		  head_waits;	/* ... for the heads of the files before theirs */
	struct batch	 *free;		/* given back */
	int		  stop;
	/* head anchors, in file order: files [0, heads) have had their first
	 * bytes read (or none to read); the latest of their anchors */
	unsigned char	 *headdone;
	size_t		  heads;
	int64_t		  head_max;
	int		  head_dated;
	pthread_cond_t	  headcv;	/* heads moved */
};

/* The merge waits for a file that is read: wake it (lock held). */
static void
wake_merge(struct pass *p)
{
	if (p->merge_waits && p->head[p->at] != NULL)
		pthread_cond_signal(&p->ready);
}

/* Fold the head anchors of the files decided, in order, up to file end,
 * into head_max (one thread: every file before the one read is decided). */
static void
heads_advance(struct pass *p, size_t end)
{
	while (p->heads < end && (p->headdone == NULL || p->headdone[p->heads])) {
		const struct source *s = p->v[p->heads++];

		if (s->head == HEAD_DATED && (!p->head_dated || s->head_anchor > p->head_max)) {
			p->head_max = s->head_anchor;
			p->head_dated = 1;
		}
	}
}

/* scanner's anchor_before: the latest head anchor of the files before
 * src, in file order, for the same answer on any number of threads. */
static int
anchor_before(void *arg, const struct source *src, int64_t *a)
{
	struct pass *p = arg;
	size_t i = src->id;
	int dated;

	if (!p->threaded) {	/* on one thread: the files before are read */
		heads_advance(p, i);
		*a = p->head_max;
		return p->head_dated;
	}
	pthread_mutex_lock(&p->mu);
	while (!p->stop && p->heads < i) {
		/* the files before may wait for the merge to take theirs */
		wake_merge(p);
		p->head_waits++;
		pthread_cond_wait(&p->headcv, &p->mu);
		p->head_waits--;
	}
	*a = p->head_max;
	dated = p->head_dated;
	pthread_mutex_unlock(&p->mu);
	return dated;
}

static struct batch *
take_free(struct pass *p)
{
	struct batch *b = p->free;

	if (b == NULL)
		return batch_new();
	p->free = b->next;
	b->next = NULL;
	return b;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct pass *p = w->p;
	size_t i, quiet = 0;

	pthread_mutex_lock(&p->mu);
	while (!p->stop && p->next < p->n) {
		int last;

		i = p->next++;
		do {
			struct batch *b;

			/* run ahead of the merge only so far; the file being
			 * merged always goes on */
			while (!p->stop && p->ahead >= p->max_ahead && i != p->at) {
				wake_merge(p);
				p->room_waits++;
				pthread_cond_wait(&p->room, &p->mu);
				p->room_waits--;
			}
			if (p->stop)
				break;
			b = take_free(p);
			pthread_mutex_unlock(&p->mu);
			scanner_read(&w->sc, p->v[i], PASS_BATCH, p->final, b);
			last = b->last;
			pthread_mutex_lock(&p->mu);
			if (!p->headdone[i]) {
				p->headdone[i] = 1;
				heads_advance(p, p->n);
				if (p->head_waits)
					pthread_cond_broadcast(&p->headcv);
			}
			if (p->tail[i] != NULL)
				p->tail[i]->next = b;
			else
				p->head[i] = b;
			p->tail[i] = b;
			p->ahead++;
			/* small files: one wake-up of the merge for several of
			 * them, not one each; a large one's first batch at once */
			if (!last || ++quiet >= PASS_GROUP) {
				wake_merge(p);
				quiet = 0;
			}
		} while (!last);
	}
	wake_merge(p);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* A scanner for this pass: anchor_before asks it for the files before. */
static void
pass_scanner(struct pass *p, struct scanner *sc, struct matcher *m, const int64_t *anchor)
{
	scanner_init(sc, m, anchor);
	sc->anchor_before = anchor_before;
	sc->anchor_arg = p;
}

struct pass *
pass_start(struct source *const *v, size_t n, int final, int jobs, struct matcher *m,
    const int64_t *anchor)
{
	struct pass *p = xcalloc(1, sizeof *p);
	int i;

	p->v = xmalloc((n + 1) * sizeof *p->v);
	if (n > 0)
		memcpy(p->v, v, n * sizeof *v);
	p->n = n;
	p->final = final;
	p->m = m;
	if (jobs > (int)n)
		jobs = (int)n;
	if (jobs <= 1) {
		pass_scanner(p, &p->sc, m, anchor);
		return p;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->headcv, NULL);
	p->headdone = xcalloc(n, 1);
	p->head = xcalloc(n, sizeof *p->head);
	p->tail = xcalloc(n, sizeof *p->tail);
	p->max_ahead = (size_t)jobs * PASS_AHEAD;
	p->w = xcalloc((size_t)jobs, sizeof *p->w);
	p->threaded = 1;
	for (i = 0; i < jobs; i++) {
		struct worker *w = &p->w[i];

		w->p = p;
		pass_scanner(p, &w->sc, matcher_clone(m), anchor);
		if (pthread_create(&w->th, NULL, work, w) != 0) {
			matcher_free(w->sc.matcher);
			scanner_release(&w->sc);
			break;
		}
		p->nw++;
	}
	if (p->nw == 0) {	/* no thread to be had: read on this one */
		p->threaded = 0;
		free(p->headdone);	/* every file before the one read is done */
		p->headdone = NULL;
		free(p->w);
		p->w = NULL;
		pass_scanner(p, &p->sc, m, anchor);
	}
	return p;
}

struct batch *
pass_next(struct pass *p)
{
	struct batch *b;

	if (p->nw == 0) {	/* read the next batch here and now */
		if (p->at >= p->n)
			return NULL;
		b = p->spare != NULL ? p->spare : batch_new();
		p->spare = NULL;
		scanner_read(&p->sc, p->v[p->at], PASS_BATCH, p->final, b);
		return b;
	}
	pthread_mutex_lock(&p->mu);
	if (p->at >= p->n) {
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	while (p->head[p->at] == NULL) {
		p->merge_waits = 1;
		pthread_cond_wait(&p->ready, &p->mu);
		p->merge_waits = 0;
	}
	b = p->head[p->at];
	p->head[p->at] = b->next;
	if (p->head[p->at] == NULL)
		p->tail[p->at] = NULL;
	b->next = NULL;
	p->ahead--;
	if (p->room_waits)
		pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->mu);
	return b;
}

void
pass_recycle(struct pass *p, struct batch *b)
{
	int last = b->last;

	batch_clear(b);
	if (p->nw == 0) {
		if (last)
			p->at++;
		if (p->spare == NULL)
			p->spare = b;
		else
			batch_free(b);
		return;
	}
	pthread_mutex_lock(&p->mu);
	if (last) {
		p->at++;
		if (p->room_waits)
			pthread_cond_broadcast(&p->room);	/* its worker may go on */
	}
	b->next = p->free;
	p->free = b;
	pthread_mutex_unlock(&p->mu);
}

size_t
pass_at(const struct pass *p)
{
	return p->at;
}

void
pass_end(struct pass *p)
{
	struct batch *b;
	size_t i;
	int k;

	if (p == NULL)
		return;
	if (p->nw > 0) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_broadcast(&p->room);
		pthread_cond_broadcast(&p->headcv);
		pthread_mutex_unlock(&p->mu);
		for (k = 0; k < p->nw; k++) {
			pthread_join(p->w[k].th, NULL);
			matcher_free(p->w[k].sc.matcher);
			scanner_release(&p->w[k].sc);
		}
		for (i = 0; i < p->n; i++)
			while ((b = p->head[i]) != NULL) {
				p->head[i] = b->next;
				batch_free(b);
			}
		while ((b = p->free) != NULL) {
			p->free = b->next;
			batch_free(b);
		}
		pthread_cond_destroy(&p->ready);
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->headcv);
		pthread_mutex_destroy(&p->mu);
		free(p->headdone);
		free(p->head);
		free(p->tail);
		free(p->w);
	} else
		scanner_release(&p->sc);
	batch_free(p->spare);
	free(p->v);
	free(p);
}

/* The CPU quota of the cgroup (v2 cpu.max, v1 cfs quota) this process is
 * in, in CPUs rounded up; 0 when none is set or it cannot be read. */
static int
cgroup_cpus(void)
{
	FILE *f;
	char line[512], path[700], *rel = NULL;
	long long quota = -1, period = 0;
	int cpus = 0;

	if ((f = fopen("/proc/self/cgroup", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0::", 3) == 0) {
			rel = strdup(line + 3);
			break;
		}
	}
	fclose(f);
	if (rel == NULL)
		return 0;
	/* the quota of this group or of any above it: the tightest counts */
	for (;;) {
		char buf[128];

		snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", rel);
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(buf, sizeof buf, f) != NULL &&
			    sscanf(buf, "%lld %lld", &quota, &period) == 2 && quota > 0 &&
			    period > 0) {
				int c = (int)((quota + period - 1) / period);

				if (cpus == 0 || c < cpus)
					cpus = c;
			}
			fclose(f);
		}
		if (*rel == '\0' || strcmp(rel, "/") == 0)
			break;
		*strrchr(rel, '/') = '\0';
	}
	free(rel);
	if (cpus == 0 && (f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r")) != NULL) {
		if (fscanf(f, "%lld", &quota) != 1)
			quota = -1;
		fclose(f);
		if (quota > 0 && (f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r")) != NULL) {
			if (fscanf(f, "%lld", &period) == 1 && period > 0)
				cpus = (int)((quota + period - 1) / period);
			fclose(f);
		}
	}
	return cpus;
}

int
pass_default_jobs(void)
{
	cpu_set_t set;
	int n = 1, q;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if ((q = cgroup_cpus()) > 0 && q < n)
		n = q;
	return n < 1 ? 1 : n;
}

struct each {
	atomic_size_t	  next;
	size_t		  n;
	void		(*fn)(void *arg, size_t i);
	void		 *arg;
};

static void *
each_work(void *arg)
{
	struct each *e = arg;
	size_t i;

	while ((i = atomic_fetch_add(&e->next, 1)) < e->n)
		e->fn(e->arg, i);
	return NULL;
}

void
pass_each(size_t n, int jobs, void (*fn)(void *arg, size_t i), void *arg)
{
	struct each e;
	pthread_t th[64];
	int k, started = 0;

	atomic_init(&e.next, 0);
	e.n = n;
	e.fn = fn;
	e.arg = arg;
	if (jobs > 64)
		jobs = 64;
	for (k = 1; k < jobs && (size_t)k < n; k++)
		if (pthread_create(&th[started], NULL, each_work, &e) == 0)
			started++;
	each_work(&e);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
}
