/* attribute.c: whose event is it. A line that names no rank of its own
 * may still name the rank it is about (a launcher's report of a failed
 * local rank, a pid, a GPU's bus id); this pass gives such events their
 * rank, before anything is ordered or counted. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

/* --- kernel lines to ranks ------------------------------------------------ */

/* PCI bus and device from "0000:5d:00" / "0000:5d:00.0" (Xid), or from
 * NCCL's busId "5d000" (domain << 20 | bus << 12 | device << 4 | fn... as
 * printed with %lx: the bus is the two hex digits before the last three). */
static int
pci_of_xid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned d, b, v;

	if (sscanf(s, "%x:%x:%x", &d, &b, &v) == 3) {
		*bus = b;
		*dev = v;
		return 1;
	}
	if (sscanf(s, "%x:%x", &b, &v) == 2) {
		*bus = b;
		*dev = v;
		return 1;
	}
	return 0;
}

static int
pci_of_busid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned long v;
	char *end;

	v = strtoul(s, &end, 16);
	if (end == s || *end != '\0')
		return 0;
	*bus = (unsigned)((v >> 12) & 0xff);
	*dev = (unsigned)((v >> 4) & 0xff);
	return 1;
}

/* An unranked event naming a GPU (fact pci: a kernel Xid line) belongs to
 * the rank whose NCCL init line shows that bus (fact bus_id), on the same
 * host when the line's host is known (syslog prefix, or a host named in
 * the file's name). Ambiguous matches stay unranked. */
static void
attribute_by_gpu(struct incident *in)
{
	int pci = rulebook_find_fact(in->rb, "pci"), busid = in->engine.ids[ENGINE_BUS_ID];
	size_t i, j;

	if (pci < 0 || busid < 0)
		return;
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];
		const char *p = ev->rank < 0 ? event_fact(ev, pci) : NULL;
		unsigned bus, dev;
		int found = -1, many = 0;

		if (p == NULL || !pci_of_xid(p, &bus, &dev))
			continue;
		/* the init lines kept, then those only summarised */
		for (j = 0; j < in->nevents + in->engine.ngpus; j++) {
			const struct event *b = j < in->nevents ? in->events[j] : NULL;
			const char *v = b != NULL ? event_fact(b, busid) : NULL;
			int rank = b != NULL ? b->rank : in->engine.gpus[j - in->nevents].rank;
			const char *host = rank >= 0 ? incident_host(in, rank) : NULL;
			unsigned bb, bd;

			if (b != NULL && (v == NULL || !pci_of_busid(v, &bb, &bd)))
				continue;
			if (b == NULL)
				bb = in->engine.gpus[j - in->nevents].bus;
			if (rank < 0 || bb != bus)
				continue;
			if (host != NULL && ((ev->host != NULL && strcmp(ev->host, host) != 0) ||
			    (ev->host == NULL && strstr(event_file(ev), host) == NULL && in->multi_hosts)))
				continue;
			if (found >= 0 && found != rank)
				many = 1;
			found = rank;
		}
		if (found >= 0 && !many) {
			ev->rank = found;
			ev->rank_from = RANK_NAMED;
			ev->via = VIA_GPU;
		}
	}
}

/* --- what a line says it is about ---------------------------------------- */

static int
fact_long(const struct event *ev, int fact, long *out)
{
	const char *v = fact >= 0 ? event_fact(ev, fact) : NULL;
	char *end;

	if (v == NULL || *v < '0' || *v > '9')
		return 0;
	*out = strtol(v, &end, 10);
	return *end == '\0' && *out >= 0 && *out < INCIDENT_MAX_RANK * 64L;
}

struct pidrank {
	long		 pid;
	int		 rank;
	const char	*host;
};

static int
pidrank_cmp(const void *a, const void *b)
{
	const struct pidrank *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Which rank a pid was: lines that show both (NCCL's host:pid:tid or Ray's
 * pid= on a ranked line), ranked lines that name a pid they are about
 * (torchrun's summary: "exitcode : 1 (pid: 4242)" under "rank : 3"), and
 * a launcher's line that names a rank and its pid (mpirun's "process rank
 * 3 with PID 1167 on node ..."). */
static struct pidrank *
pid_table(const struct incident *in, size_t *np)
{
	struct pidrank *v = NULL;
	size_t n = 0, cap = 0, i;
	int pid_fact = rulebook_find_fact(in->rb, "pid");

	for (i = 0; i < in->rank_n; i++)
		if (in->rank_v[i]->pid >= 0) {
			XGROW(v, cap, n + 1);
			v[n].pid = in->rank_v[i]->pid;
			v[n].rank = in->rank_v[i]->rank;
			v[n++].host = in->rank_v[i]->host;
		}
	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];
		const char *host = ev->host;	/* (a launcher's is not the process's) */
		long pid, r;

		if (ev->line_rank >= 0 && ev->line_rank_from >= RANK_FILE &&
		    fact_long(ev, ev->sig->about[ABOUT_PID], &pid))
			r = ev->line_rank;
		else if (fact_long(ev, ev->sig->about[ABOUT_RANK], &r) && pid_fact >= 0 &&
		    fact_long(ev, pid_fact, &pid) && r >= 0 && r < INCIDENT_MAX_RANK)
			host = NULL;
		else
			continue;
		XGROW(v, cap, n + 1);
		v[n].pid = pid;
		v[n].rank = (int)r;
		v[n++].host = host;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, pidrank_cmp);
	*np = n;
	return v;
}

/* The one rank a pid belongs to (on host, when known), -1 when it has
 * several, -2 when it has none. */
static int
pid_rank(const struct pidrank *v, size_t n, long pid, const char *host)
{
	size_t lo = 0, hi = n;
	int found = -2;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].pid == pid; lo++) {
		if (host != NULL && v[lo].host != NULL && strcmp(host, v[lo].host) != 0)
			continue;
		if (found >= 0 && found != v[lo].rank)
			return -1;	/* pids are reused across hosts */
		found = v[lo].rank;
	}
	return found;
}

static void
set_event_rank(struct incident *in, struct event *ev, int rank, enum attr_via via,
    int assumed)
{
	if (rank < 0 || rank >= INCIDENT_MAX_RANK)
		return;
	(void)incident_rank_slot(in, rank);	/* a rank the logs name exists */
	ev->rank = rank;
	ev->rank_from = RANK_NAMED;
	ev->via = via;
	ev->assumed = assumed;
}

/* How many nodes the logs show: hosts (the ranks', already compared into
 * in->multi_hosts, h0 the first; then the events'), labels of launcher
 * lines, layout. */
static int
count_nodes(const struct incident *in, const char *h0)
{
	int nodes = in->multi_hosts ? 2 : 1;
	size_t i;

	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->node + 1 > nodes)
			nodes = ev->node + 1;
		if (ev->sig->about[ABOUT_LOCAL_RANK] >= 0 && ev->label + 1 > nodes)
			nodes = ev->label + 1;
		if (ev->host != NULL) {
			if (h0 == NULL)
				h0 = ev->host;
			else if (nodes < 2 && strcmp(h0, ev->host) != 0)
				nodes = 2;
		}
	}
	/* and the events the incident only summarised */
	if (in->sum_nodes > nodes)
		nodes = in->sum_nodes;
	for (i = 0; i < 2 && in->sum_host[i] != NULL; i++) {
		if (h0 == NULL)
			h0 = in->sum_host[i];
		else if (nodes < 2 && strcmp(h0, in->sum_host[i]) != 0)
			nodes = 2;
	}
	return nodes;
}

/* Ranks per node, when the run says (a fact nproc_per_node or
 * local_world_size); 0 when it does not. */
static int
ranks_per_node(const struct incident *in)
{
	const int *f = in->engine.ids + ENGINE_NPROC_PER_NODE;	/* and local_world_size */
	int best = 0;
	size_t i, k;
	long v;

	for (i = 0; i < in->nevents; i++)
		for (k = 0; k < 2; k++)
			if (fact_long(in->events[i], f[k], &v) && v > best && v < 1024)
				best = (int)v;
	return in->engine.nproc > best ? in->engine.nproc : best;
}

/* Does a launcher of its own run on each node (torchrun's agent, the
 * DeepSpeed launcher): a line about a local rank or a worker's pid, the
 * failure summary, a [defaultN]: tee? Then a task srun or mpirun
 * started is such a launcher, not a rank. */
static int
agents_seen(const struct incident *in)
{
	size_t i;

	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->sig->about[ABOUT_LOCAL_RANK] >= 0 || ev->sig->about[ABOUT_PID] >= 0 ||
		    ev->rank_from == RANK_SUMMARY || ev->line_rank_from == RANK_LOCAL)
			return 1;
	}
	return 0;
}

/* A launcher line about a local rank (torchrun's agent: "failed (exitcode:
 * -9) local_rank: 5 (pid: 22)"): the pid if a line showed its rank, else
 * node * ranks per node + local rank, else on one node local = global, an
 * assumption the reason will state. A line about a task (srun's "task 5:
 * Exited with exit code 1"): that rank, unless each node runs a launcher
 * of its own. */
static void
attribute_local(struct incident *in, struct analysis *an)
{
	int nproc = ranks_per_node(in), agents = -1;
	struct pidrank *pids = NULL;	/* made for the first line that names a
					 * pid: most runs have none, and a
					 * run's 100,000 ranks need no table */
	size_t i, npids = 0;
	int made = 0;

	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];
		const struct signature *s = ev->sig;
		long local, pid;
		int node, r;

		if (ev->rank_from == RANK_PREFIX)
			continue;	/* printed by the rank itself */
		if (s->about[ABOUT_RANK] >= 0 && fact_long(ev, s->about[ABOUT_RANK], &local)) {
			set_event_rank(in, ev, (int)local, VIA_MESSAGE, 0);
			continue;
		}
		if (s->about[ABOUT_TASK] >= 0 && fact_long(ev, s->about[ABOUT_TASK], &local)) {
			if (agents < 0)
				agents = agents_seen(in);
			if (!agents)
				set_event_rank(in, ev, (int)local, VIA_TASK, 0);
			continue;
		}
		if (fact_long(ev, s->about[ABOUT_PID], &pid)) {
			if (!made) {
				pids = pid_table(in, &npids);
				made = 1;
			}
			if ((r = pid_rank(pids, npids, pid, ev->host)) >= 0) {
				set_event_rank(in, ev, r, VIA_LAUNCHER, 0);
				continue;
			}
		} else if (ev->rank < 0 && ev->pid >= 0 && s->role != ROLE_CONTEXT) {
			/* a line its process printed with its pid and no rank
			 * (Open MPI's crash handler's "[host:pid] "): the rank a
			 * line that names both gave that pid */
			if (!made) {
				pids = pid_table(in, &npids);
				made = 1;
			}
			if ((r = pid_rank(pids, npids, ev->pid, ev->host)) >= 0) {
				set_event_rank(in, ev, r, VIA_PID, 0);
				continue;
			}
		}
		if (!fact_long(ev, s->about[ABOUT_LOCAL_RANK], &local))
			continue;
		node = ev->label >= 0 ? ev->label : ev->node;
		if (node == 0)
			set_event_rank(in, ev, (int)local, VIA_LAUNCHER, 0);
		else if (node > 0 && nproc > 0 && local < nproc)
			set_event_rank(in, ev, node * nproc + (int)local, VIA_LAUNCHER, 0);
		else if (node < 0 && an->nodes == 1) {
			set_event_rank(in, ev, (int)local, VIA_LAUNCHER, 1);
			an->assumed_local = 1;
		}
	}
	free(pids);
}

static const struct incident *line_in;

static int
line_order_cmp(const void *a, const void *b)
{
	const struct event *x = line_in->events[*(const size_t *)a];
	const struct event *y = line_in->events[*(const size_t *)b];
	int c = event_file(x) == event_file(y) ? 0 : strcmp(event_file(x), event_file(y));

	if (c != 0)
		return c;
	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/* A record names its rank on a later line (DDP's "Expected to have
 * finished reduction ..." and, lines below, "... did not receive grad for
 * rank 3"): an unranked event takes the rank that a following event of the
 * same entry, within a few lines of the same file, is about; of any entry,
 * when that event is a context line that only names the rank (torch_npu's
 * "[ERROR] DATE (PID:N, Device:D, RankID:R)" after its exception). Or a
 * launcher's header names it for the lines that follow (about: record:
 * following; torch.multiprocessing.spawn's "-- Process 1 terminated with
 * the following error:" before the worker's traceback). */
static int
ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a, y = (uintptr_t)*(const char *const *)b;

	return x < y ? -1 : x > y;
}

static void
attribute_records(struct incident *in)
{
	size_t *idx = xmalloc(sizeof *idx * (in->nevents + 1)), i, j, n = 0, nf = 0;
	const char **files = xmalloc(sizeof *files * (in->nevents + 1));

	/* only the files that have an unranked event: the others have
	 * nothing to give a rank to (a run of 16,384 rank files has none) */
	for (i = 0; i < in->nevents; i++)
		if (in->events[i]->rank < 0)
			files[nf++] = event_file(in->events[i]);
	qsort(files, nf, sizeof *files, ptr_cmp);
	for (i = j = 0; i < nf; i++)
		if (j == 0 || files[j - 1] != files[i])
			files[j++] = files[i];
	nf = j;
	for (i = 0; nf > 0 && i < in->nevents; i++) {
		const char *f = event_file(in->events[i]);

		if (bsearch(&f, files, nf, sizeof *files, ptr_cmp) != NULL)
			idx[n++] = i;
	}
	free(files);
	line_in = in;
	qsort(idx, n, sizeof *idx, line_order_cmp);
	for (i = 0; i < n; i++) {
		struct event *ev = in->events[idx[i]];

		if (ev->rank >= 0)
			continue;
		for (j = i; j > 0; j--) {
			const struct event *x = in->events[idx[j - 1]];

			if (event_file(x) != event_file(ev) || x->lineno + RECORD_SPAN < ev->lineno)
				break;
			/* (an incident's hosts are interned: one pointer a name) */
			if (x->sig->about_following && x->rank >= 0 && x->via != VIA_LINE &&
			    x->host == ev->host) {
				set_event_rank(in, ev, x->rank, VIA_RECORD, x->assumed);
				break;
			}
		}
		if (ev->rank >= 0)
			continue;
		for (j = i + 1; j < n; j++) {
			const struct event *x = in->events[idx[j]];

			if (event_file(x) != event_file(ev) || x->lineno > ev->lineno + RECORD_SPAN)
				break;
			/* the same signature again, or a line of another host:
			 * another record (nccl-tests' failure line of each host,
			 * then mpirun's "Process name: [[J,1],R]" for the first
			 * process that exited) */
			if (x->sig == ev->sig || x->host != ev->host)
				break;
			if ((x->sig->entry == ev->sig->entry || x->sig->role == ROLE_CONTEXT) &&
			    x->rank >= 0 && x->sig->about[ABOUT_RANK] >= 0 && x->via == VIA_MESSAGE) {
				set_event_rank(in, ev, x->rank, VIA_RECORD, x->assumed);
				break;
			}
		}
	}
	free(idx);
}

/* A launcher that passes its workers' output through with no prefix
 * (torchrun without --tee, the DeepSpeed launcher, spawn) leaves a
 * worker's error with no rank, and then names the worker that failed in
 * a line of its own ("failed (exitcode: -6) local_rank: 3 (pid: 1234)").
 * When its lines name exactly one failed worker (one it terminated
 * itself, SIGTERM, is teardown, not a failure), an initiating line with
 * no rank, in the same file, before the last of those lines, in a file
 * where no line carries a rank of its own, is taken as that worker's,
 * unless the line shows another pid than the worker's (NCCL's or UCX's
 * "host:pid:..." of another process that failed too). (A
 * header for the lines after it, spawn's "-- Process 2 terminated with
 * the following error:", already gave those; the lines before it are the
 * parent's.) */
static void
attribute_failed_worker(struct incident *in)
{
	const struct event *report = NULL;
	const char *file;
	uint32_t last = 0;
	size_t i;
	long pid;

	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->via != VIA_LAUNCHER || ev->rank < 0 || ev->sig->about_following ||
		    ev->sig->fallout == FALLOUT_TEARDOWN)
			continue;
		if (report != NULL && (ev->rank != report->rank ||
		    strcmp(event_file(ev), event_file(report)) != 0))
			return;	/* two workers failed, or two launchers */
		report = ev;
		if (ev->lineno > last)
			last = ev->lineno;
	}
	if (report == NULL)
		return;
	if (!fact_long(report, report->sig->about[ABOUT_PID], &pid))
		pid = -1;
	file = event_file(report);
	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];

		if (ev->line_rank >= 0 && strcmp(event_file(ev), file) == 0)
			return;
	}
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];

		if (ev->rank < 0 && ev->sig->role == ROLE_INITIATING && ev->lineno < last &&
		    strcmp(event_file(ev), file) == 0 && (pid < 0 || ev->pid < 0 || ev->pid == pid))
			set_event_rank(in, ev, report->rank, VIA_EXIT, report->assumed);
	}
}

/* The world size, where the run establishes it: a fact world_size or
 * NCCL's nranks (the largest communicator seen), or every rank up to the
 * highest (1 or more) having written. Otherwise 0: the logs cover some
 * ranks and no more can be said of the others. */
static void
establish_world(const struct incident *in, struct analysis *an)
{
	const int *f = in->engine.ids + ENGINE_WORLD_SIZE;	/* and nranks */
	size_t i, k;
	long v, best = 0;

	an->world = 0;
	an->world_from = NULL;
	for (i = 0; i <= in->nevents; i++)
		for (k = 0; k < 2; k++) {
			/* the events kept, then what the others said */
			if (i < in->nevents ? !fact_long(in->events[i], f[k], &v) :
			    (v = in->engine.world[k]) == 0)
				continue;
			if (v > best) {
				best = v;
				an->world_from = k == 0 ? "the world size the logs print" :
				    "the size of the largest NCCL communicator";
			}
		}
	if (best > 0 && best >= in->top) {
		an->world = (int)best;
		return;
	}
	an->world_from = NULL;
	/* (rank 0 alone says nothing: "[Rank 0]" lines, one rank's excerpt) */
	if (in->top > 1 && incident_active_ranks(in) == (size_t)in->top) {
		an->world = in->top;
		an->world_from = "every rank up to the highest wrote";
		return;
	}
	/* One stream carrying most ranks' own lines (a combined log): ranks
	 * count from 0, so every rank below the highest ran and would have
	 * written there. A stream that shows fewer than half of them is an
	 * excerpt (or one node's share), and separate files per rank say
	 * nothing of the files not given. */
	{
		const char *file = NULL;
		int r0 = -1, several = 0;
		size_t seen = 0;

		for (i = 0; i < in->nevents; i++) {
			const struct event *ev = in->events[i];

			if (ev->line_rank < 0 || ev->line_rank_from == RANK_FILE ||
			    incident_lone_muted(in, ev))
				continue;
			if (file == NULL)
				file = event_file(ev);
			else if (event_file(ev) != file && strcmp(event_file(ev), file) != 0)
				return;
			if (r0 < 0)
				r0 = ev->line_rank;
			else if (ev->line_rank != r0)
				several = 1;
		}
		/* and the events the incident only summarised */
		if (in->sum_file != NULL) {
			if (in->sum_files > 1 || (file != NULL && in->sum_file != file &&
			    strcmp(in->sum_file, file) != 0))
				return;
			if (file == NULL)
				file = in->sum_file;
			if (r0 < 0)
				r0 = in->sum_r0;
			else if (in->sum_r0 != r0)
				several = 1;
			several |= in->sum_several;
		}
		seen = incident_active_ranks(in);
		if (several && file != NULL && 2 * seen >= (size_t)in->top) {
			an->world = in->top;
			an->world_from = "one log carries the ranks' output";
		}
	}
}

/* NCCL prints its process's rank in a communicator ("host:pid:tid [dev]
 * NCCL INFO comm 0x... rank 3 nranks 16 ... - Init COMPLETE"): in the
 * communicator of the whole world, the global rank (PyTorch's default
 * group). A line with no rank of its own from that host and pid (NCCL's
 * WARN on an unprefixed log) is that rank's; a pid two ranks claim
 * (hosts unknown) gives none, as pid_rank says. A process whose lines
 * never say the size of a communicator (an init that failed before
 * "Init COMPLETE") is known by its rank in the connections it set up
 * ("Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0"): only when every
 * such line of it names the same rank (one communicator, or a rank the
 * same in each), and below the world's size where that is known. */
static void
attribute_by_process(struct incident *in, const struct analysis *an)
{
	const struct engine_sum *e = &in->engine;
	struct pidrank *v[3];	/* the world's; any sized; sizes unknown */
	size_t i, n[3] = { 0, 0, 0 };

	if (e->ncomms == 0)
		return;
	for (i = 0; i < 3; i++)
		v[i] = xmalloc(sizeof *v[i] * e->ncomms);
	for (i = 0; i < e->ncomms; i++) {
		const struct engine_comm *c = &e->comms[i];
		struct pidrank t = { c->pid, c->rank, c->host };

		if (c->nranks >= 0) {
			v[1][n[1]++] = t;
			if (c->nranks == an->world)
				v[0][n[0]++] = t;
		} else if (an->world <= 0 || c->rank < an->world)
			v[2][n[2]++] = t;
	}
	for (i = 0; i < 3; i++)
		qsort(v[i], n[i], sizeof *v[i], pidrank_cmp);
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];
		int r;

		if (ev->rank >= 0 || ev->pid < 0)
			continue;
		if ((r = pid_rank(v[0], n[0], ev->pid, ev->host)) >= 0)
			set_event_rank(in, ev, r, VIA_PROCESS, 0);
		else if (pid_rank(v[1], n[1], ev->pid, ev->host) == -2)
			set_event_rank(in, ev, pid_rank(v[2], n[2], ev->pid, ev->host),
			    VIA_CONNECTION, 0);
	}
	for (i = 0; i < 3; i++)
		free(v[i]);
}

void
attribute_events(struct incident *in, struct analysis *an)
{
	const char *h0 = NULL;
	size_t i;

	in->multi_hosts = 0;
	incident_sort(in);	/* h0: the lowest rank's host */
	for (i = 0; i < in->rank_n; i++)
		if (in->rank_v[i]->host != NULL) {
			if (h0 == NULL)
				h0 = in->rank_v[i]->host;
			else if (strcmp(h0, in->rank_v[i]->host) != 0)
				in->multi_hosts = 1;
		}
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];

		ev->rank = ev->line_rank;
		ev->rank_from = ev->line_rank_from;
		ev->assumed = 0;
		ev->via = VIA_LINE;
	}
	an->nodes = count_nodes(in, h0);
	an->assumed_local = 0;
	attribute_local(in, an);
	attribute_records(in);
	attribute_failed_worker(in);
	attribute_by_gpu(in);
	for (i = 0; i < in->nevents; i++) {
		const struct event *ev = in->events[i];
		const char *v = ev->sig->about[ABOUT_SUSPECT] >= 0 ?
		    event_fact(ev, ev->sig->about[ABOUT_SUSPECT]) : NULL;
		long r;

		while (v != NULL && incident_next_rank(&v, &r))
			if (r < INCIDENT_MAX_RANK)
				(void)incident_rank_slot(in, (int)r);
	}
	establish_world(in, an);
	attribute_by_process(in, an);
}

/* --- what the incident did not keep --------------------------------------- */

void
attribute_init(struct incident *in)
{
	int *ids = in->engine.ids;

	ids[ENGINE_WORLD_SIZE] = rulebook_find_fact(in->rb, "world_size");
	ids[ENGINE_NRANKS] = rulebook_find_fact(in->rb, "nranks");
	ids[ENGINE_NPROC_PER_NODE] = rulebook_find_fact(in->rb, "nproc_per_node");
	ids[ENGINE_LOCAL_WORLD_SIZE] = rulebook_find_fact(in->rb, "local_world_size");
	ids[ENGINE_BUS_ID] = rulebook_find_fact(in->rb, "bus_id");
	ids[ENGINE_COMM_RANK] = rulebook_find_fact(in->rb, "comm_rank");
}

void
attribute_note_process(struct incident *in, const struct event *ev)
{
	struct engine_sum *e = &in->engine;
	long n, r;

	/* (a context line's comm_rank is its own: an init line; an error
	 * line's names another, "rank 5 has already checked in"; without
	 * nranks, a connection's line: size unknown) */
	if (ev->line_rank >= 0 || ev->pid < 0 || e->ids[ENGINE_COMM_RANK] < 0 ||
	    ev->sig->role != ROLE_CONTEXT ||
	    !fact_long(ev, e->ids[ENGINE_COMM_RANK], &r) || r < 0 ||
	    r >= INCIDENT_MAX_RANK)
		return;
	if (!fact_long(ev, e->ids[ENGINE_NRANKS], &n))
		n = -1;
	else if (r >= n)
		return;
	/* a process's lines about its communicators: a few a process, its
	 * connections' lines (dozens) come together */
	if (e->ncomms > 0 && e->comms[e->ncomms - 1].pid == ev->pid &&
	    e->comms[e->ncomms - 1].rank == r && e->comms[e->ncomms - 1].nranks == n &&
	    e->comms[e->ncomms - 1].host == ev->host)
		return;
	XGROW(e->comms, e->capcomms, e->ncomms + 1);
	e->comms[e->ncomms].host = ev->host;
	e->comms[e->ncomms].pid = ev->pid;
	e->comms[e->ncomms].rank = (int32_t)r;
	e->comms[e->ncomms++].nranks = n;
}

void
attribute_summarise(struct incident *in, const struct event *ev)
{
	struct engine_sum *e = &in->engine;
	const char *v;
	unsigned bus, dev;
	size_t k;
	long n;

	for (k = 0; k < 2; k++)
		if (fact_long(ev, e->ids[ENGINE_WORLD_SIZE + k], &n) && n > e->world[k])
			e->world[k] = n;
	for (k = 0; k < 2; k++)
		if (fact_long(ev, e->ids[ENGINE_NPROC_PER_NODE + k], &n) && n > e->nproc &&
		    n < 1024)
			e->nproc = (int)n;
	if (ev->rank < 0 || e->ids[ENGINE_BUS_ID] < 0 ||
	    (v = event_fact(ev, e->ids[ENGINE_BUS_ID])) == NULL ||
	    !pci_of_busid(v, &bus, &dev))
		return;
	/* a rank's init lines come together, and name the same GPU */
	if (e->ngpus > 0 && e->gpus[e->ngpus - 1].rank == ev->rank &&
	    e->gpus[e->ngpus - 1].bus == bus)
		return;
	XGROW(e->gpus, e->capgpus, e->ngpus + 1);
	e->gpus[e->ngpus].rank = ev->rank;
	e->gpus[e->ngpus++].bus = bus;
}
