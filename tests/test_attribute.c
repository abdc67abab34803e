/* test_attribute.c: real-world shapes of evidence, with the shipped rules.
 * Launcher lines that name a local rank or a pid, a record that names its
 * rank on a later line, ranks the logs do not establish, lines without
 * times, hard-wrapped records, pasted excerpts, and what the confidence
 * rests on. Every line here is written for this test, in the formats
 * torchrun, PyTorch and NCCL print. */
#include "config.h"

#include "testutil.h"
#include "testrules.h"
#include "testcond.h"

#include "analysis.h"
#include "incident.h"
#include "rulebook.h"
#include "run.h"

static struct rulebook *rb;

static int
setup(void **state)
{
	(void)state;
	rb = tu_rulebook(TEST_SRCDIR "/rules");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rulebook_free(rb);
	return 0;
}

struct tcase {
	char		*dir;
	struct run	*r;
};

static const struct analysis *
analyse_dir(struct tcase *t)
{
	const char *paths[1] = { t->dir };
	char *why = NULL;

	t->r = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(t->r);
	run_scan(t->r, 1);
	return incident_analyse(t->r->incident);
}

/* One log of text in the case's folder (a fresh one after done),
 * analysed. */
static const struct analysis *
analyse_log(struct tcase *t, const char *name, const char *text)
{
	if (t->dir == NULL)
		t->dir = tu_tmpdir();
	TU_WRITE(t->dir, name, text);
	return analyse_dir(t);
}

static char *
xstrdup_test(const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);

	assert_non_null(s);
	strcpy(s, a);
	strcat(s, b);
	return s;
}

static void
done(struct tcase *t)
{
	run_free(t->r);
	tu_rmdir(t->dir);
	t->r = NULL;
	t->dir = NULL;
}

#define AGENT	"E1130 03:14:%02d.512000 7701 torch/distributed/elastic/multiprocessing/api.py:882] "

/* torchrun on one node: only the agent's lines name the failed worker. */
static void
test_agent_local_rank_one_node(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	char buf[4096];

	(void)state;
	snprintf(buf, sizeof buf,
	    "W1130 03:14:07.100000 7701 torch/distributed/elastic/multiprocessing/api.py:897] "
	    "Sending process 7710 closing signal SIGTERM\n"
	    "W1130 03:14:07.100000 7701 torch/distributed/elastic/multiprocessing/api.py:897] "
	    "Sending process 7711 closing signal SIGTERM\n"
	    AGENT "failed (exitcode: -9) local_rank: 5 (pid: 7715) of binary: /usr/bin/python3\n",
	    7);
	TU_WRITE(t.dir, "train.log", buf);
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 5);
	/* a launcher line and an assumption: never high */
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "local rank"));
	assert_non_null(strstr(an->reason, "one node"));
	assert_int_equal(an->assumed_local, 1);
	done(&t);
}

/* The pid a ranked NCCL line shows maps the agent's line to its rank,
 * without assuming anything about nodes. */
static void
test_agent_pid_maps_to_rank(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "node.log",
	    "[rank9]:gpu-c12:40021:40090 [1] NCCL INFO Channel 00/02 : 0[1] -> 1[1] via P2P/IPC\n"
	    "[rank8]:gpu-c12:40020:40088 [0] NCCL INFO Channel 00/02 : 0[0] -> 1[0] via P2P/IPC\n"
	    "gpu-c12: E1130 03:14:09.512000 7701 torch/distributed/elastic/multiprocessing/api.py:882] "
	    "failed (exitcode: -11) local_rank: 1 (pid: 40021) of binary: /usr/bin/python3\n"
	    "gpu-c03: W1130 03:14:09.600000 8800 torch/distributed/elastic/agent/server/api.py:704] "
	    "Received Signals.SIGTERM death signal, shutting down workers\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 9);
	assert_int_equal(an->initiating->via, VIA_LAUNCHER);
	assert_int_equal(an->initiating->assumed, 0);
	assert_non_null(strstr(an->reason, "launcher line"));
	done(&t);
}

/* On several nodes, a local rank alone says nothing of the global one. */
static void
test_agent_local_rank_many_nodes_stays_unranked(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "job.log",
	    "gpu-a01: E1130 03:14:09.512000 7701 torch/distributed/elastic/multiprocessing/api.py:882] "
	    "failed (exitcode: -9) local_rank: 3 (pid: 5123) of binary: /usr/bin/python3\n"
	    "gpu-a02: W1130 03:14:10.100000 7702 torch/distributed/elastic/multiprocessing/api.py:897] "
	    "Sending process 6001 closing signal SIGTERM\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, -1);
	assert_string_equal(an->confidence, "low");
	done(&t);
}

/* DDP names the rank three lines below the error that starts the record. */
static void
test_record_names_its_rank_later(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "out.log",
	    "RuntimeError: Expected to have finished reduction in the prior iteration before "
	    "starting a new one. This error indicates that your module has parameters that were "
	    "not used in producing loss.\n"
	    "making sure all `forward` function outputs participate in calculating loss.\n"
	    "Parameters which did not receive grad for rank 6: head.proj.bias, head.proj.weight\n"
	    "Parameter indices which did not receive grad for rank 6: 301 302\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 6);
	assert_string_equal(an->diags[0].entry->id, "ddp-unused-parameters");
	/* a rank another line lends is an inference, said so */
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "from another line of the same record"));
	done(&t);
}

/* rank0.log and rank13.log: ranks 1-12 exist, but nothing says their logs
 * should be here; they are neither suspects nor rows. */
static void
test_no_invented_ranks(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	TU_WRITE(t.dir, "rank0.log",
	    "[rank0]:[E1130 05:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=8, "
	    "NumelOut=8, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n");
	TU_WRITE(t.dir, "rank13.log",
	    "[rank13]:[E1130 05:00:02.000000000 ProcessGroupNCCL.cpp:632] [Rank 13] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=8, "
	    "NumelOut=8, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_int_equal(an->world, 0);
	for (i = 0; i < an->nsuspects; i++)
		assert_null(strstr(an->suspects[i].reason, "wrote nothing"));
	for (i = 1; i < 13; i++)
		assert_null(incident_rank(t.r->incident, (int)i));
	done(&t);
}

/* Ranks 0 and 1 of a combined log that both wrote make a world of 2;
 * rank 0 alone (DeepSpeed's "[Rank 0]" lines, one rank's excerpt) makes
 * none: the run may have had any number of ranks. */
static void
test_rank0_alone_is_no_world(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank0]: Traceback (most recent call last):\n"
	    "[rank0]:   File \"train.py\", line 9, in <module>\n"
	    "[rank0]: RuntimeError: boom\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->world, 0);
	done(&t);
	an = analyse_log(&t, "combined.log",
	    "[rank1]: step 3 done\n"
	    "[rank0]: Traceback (most recent call last):\n"
	    "[rank0]:   File \"train.py\", line 9, in <module>\n"
	    "[rank0]: RuntimeError: boom\n");
	assert_int_equal(an->world, 2);
	done(&t);
}

/* No error is not yet a healthy run: logs that stop in the start-up
 * (no training step seen) are healthy with medium confidence at most,
 * and say why; with steps the same logs are healthy with high confidence. */
static void
test_healthy_needs_steps(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	/* (start-up lines that are no wait: a log that ends in NCCL's
	 * set-up is one, test_log_ends_in_nccl_setup) */
	static const char init[] =
	    "2024-12-18 19:01:02,114 INFO train.py:88 loading dataset from /data/c4 (1024 shards)\n"
	    "2024-12-18 19:01:40,551 INFO train.py:120 model has 6.74B parameters\n"
	    "2024-12-18 19:01:41,002 INFO train.py:131 resuming from checkpoint step 40000\n";

	(void)state;
	TU_WRITE(t.dir, "rank0.log", init);
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "no training step was seen"));
	done(&t);
	t.dir = tu_tmpdir();
	TU_WRITE(t.dir, "rank0.log", init);
	TU_APPEND(t.dir, "rank0.log",
	    "2024-12-18 19:02:23,607 INFO train.py:196 step 40010 | 1107.0 ms/step | 404.7 "
	    "TFLOP/s\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	assert_string_equal(an->confidence, "high");
	assert_null(strstr(an->reason, "no training step"));
	done(&t);
}

/* NCCL's communicator size establishes the world: a rank that never
 * wrote is then missing. */
static void
test_world_from_nranks(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	int r;
	char name[32], line[512];

	(void)state;
	for (r = 0; r < 4; r++) {
		if (r == 2)
			continue;
		snprintf(name, sizeof name, "rank%d.log", r);
		snprintf(line, sizeof line,
		    "gpu-d0%d:9%03d:9%03d [%d] NCCL INFO comm 0x55d0c0ffee%02d rank %d nranks 4 "
		    "cudaDev %d busId %d000 commId 0x1234abcd - Init COMPLETE\n"
		    "[rank%d]:[E1130 05:10:0%d.000000000 ProcessGroupNCCL.cpp:632] [Rank %d] Watchdog "
		    "caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=BROADCAST, "
		    "NumelIn=3, NumelOut=3, Timeout(ms)=60000) ran for 60007 milliseconds before "
		    "timing out.\n", r, r, r, r, r, r, r, 1 + r, r, r, r);
		TU_WRITE(t.dir, name, line);
	}
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_int_equal(an->world, 4);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 2);
	done(&t);

	/* the communicator's abort says its size as well: of two ranks, the
	 * one that wrote nothing is the suspect */
	an = analyse_log(&t, "combined.log",
	    "[rank1]:[E ProcessGroupNCCL.cpp:523] [Rank 1] Watchdog caught collective operation "
	    "timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=1, NumelOut=1, "
	    "Timeout(ms)=1800000) ran for 1800013 milliseconds before timing out.\n"
	    "job-pod-0:318:402 [1] NCCL INFO comm 0x5581ab02c410 rank 1 nranks 2 cudaDev 1 "
	    "busId 3d000 - Abort COMPLETE\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_int_equal(an->world, 2);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 0);
	done(&t);
}

/* One log carrying most ranks' own lines establishes the world (rank 3,
 * absent, is then missing), even when the other ranks only logged their
 * steps: lines the incident counts rather than keeps. */
static void
test_world_from_combined_steps(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	char line[512];
	int r, s;

	(void)state;
	for (s = 0; s < 3; s++)
		for (r = 0; r < 8; r++) {
			if (r == 3)
				continue;	/* not in this excerpt */
			snprintf(line, sizeof line, "[rank%d]:2024-12-18 19:02:1%d,%03d INFO train.py:196 "
			    "step %d | 1087.0 ms/step | 402.5 TFLOP/s | 40.9%% MFU\n", r, s, 100 + r,
			    40001 + s);
			TU_APPEND(t.dir, "combined.log", line);
		}
	TU_APPEND(t.dir, "combined.log", "[rank0]:torch.OutOfMemoryError: CUDA out of memory. "
	    "Tried to allocate 3.91 GiB. GPU 0 has a total capacity of 79.10 GiB of which "
	    "2.87 GiB is free.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 0);
	assert_int_equal(an->world, 8);
	assert_string_equal(an->world_from, "one log carries the ranks' output");
	done(&t);
}

/* A torchrun --log-dir tree of two nodes is two nodes, even when node 1's
 * workers only logged their steps (counted, not kept) and the failure is
 * on node 0. */
static void
test_nodes_from_counted_lines(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	char name[256], line[256];
	int node, lr, s;

	(void)state;
	for (node = 0; node < 2; node++)
		for (lr = 0; lr < 2; lr++) {
			snprintf(name, sizeof name, "node%d/none_ab%d/attempt_0/%d/stdout.log", node,
			    node, lr);
			for (s = 0; s < 3; s++) {
				snprintf(line, sizeof line, "2024-12-18 19:02:1%d,%03d INFO train.py:196 "
				    "step %d | 1087.0 ms/step | 402.5 TFLOP/s | 40.9%% MFU\n", s,
				    100 + 10 * node + lr, 40001 + s);
				TU_APPEND(t.dir, name, line);
			}
		}
	TU_APPEND(t.dir, "node0/none_ab0/attempt_0/1/stdout.log", "torch.OutOfMemoryError: CUDA "
	    "out of memory. Tried to allocate 3.91 GiB. GPU 1 has a total capacity of 79.10 GiB "
	    "of which 2.87 GiB is free.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 1);
	assert_int_equal(an->nodes, 2);
	done(&t);
}

/* A high rank number costs one rank's state, not a table up to it: a
 * line of rank 1048575 (and a world size claiming a million ranks) keeps
 * the state of the ranks the logs show, and makes no row for the million
 * the world size claims but no line shows. */
static void
test_high_rank_costs_one_rank(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	const struct incident *in;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "gpu-a:9001:9001 [0] NCCL INFO comm 0x55d0c0ffee00 rank 0 nranks 1048576 cudaDev 0 "
	    "busId 1000 commId 0x1234abcd - Init COMPLETE\n"
	    "[rank0]: step 1\n"
	    "[rank1048575]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
	an = analyse_dir(&t);
	in = t.r->incident;
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 1048575);
	assert_int_equal(an->world, 1048576);
	assert_true(in->rank_n <= 2);
	assert_int_equal(in->top, 1048576);
	assert_int_equal(in->rank_v[0]->rank, 0);	/* in rank order */
	assert_int_equal(in->rank_v[in->rank_n - 1]->rank, 1048575);
	done(&t);
}

/* Old formats print no times: the events still decide. */
static void
test_no_times_still_judged(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "a/combined.log",
	    "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: "
	    "WorkNCCL(SeqNum=5001, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800417 "
	    "milliseconds before timing out.\n"
	    "[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught collective operation timeout: "
	    "WorkNCCL(SeqNum=5001, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800433 "
	    "milliseconds before timing out.\n");
	TU_WRITE(t.dir, "b/combined.log",
	    "[rank3]: Fatal Python error: Segmentation fault\n"
	    "[rank0]:[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation "
	    "timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800011 "
	    "milliseconds before timing out.\n");
	{
		char *whole = t.dir;

		t.dir = xstrdup_test(whole, "/a");
		an = analyse_dir(&t);
		assert_int_equal(an->verdict, VERDICT_HANG);
		run_free(t.r);
		free(t.dir);
		t.dir = xstrdup_test(whole, "/b");
		an = analyse_dir(&t);
		assert_int_equal(an->verdict, VERDICT_FAILURE);
		assert_int_equal(an->initiating->rank, 3);
		/* no time, but the other rank only reported fallout */
		assert_non_null(strstr(an->reason, "cannot come before its cause"));
		run_free(t.r);
		free(t.dir);
		t.dir = whole;
		t.r = NULL;
	}
	done(&t);
}

/* A record cut at a fixed column by a terminal or an issue form. */
static void
test_hard_wrapped_record(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank1]:[E1130 06:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=430, OpType=_ALLGATHER_BASE, NumelIn=4096, "
	    "NumelOut=16384, Timeo\n"
	    "ut(ms)=600000) ran for 600051 milliseconds before timing out.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(t.r->incident->nevents >= 1);
	assert_int_equal(t.r->incident->events[0]->lineno, 1);
	assert_int_equal(t.r->incident->events[0]->rank, 1);
	done(&t);
}

/* A record cut where its second half is a line that matches context of
 * its own ("NCCL version 2.14.3"): the two are still read as one, and
 * the context is said once, at its own line. */
static void
test_hard_wrap_second_half_is_context(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i, errors = 0, versions = 0;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank2]: RuntimeError: NCCL error in: /opt/pytorch/torch/lib/c10d/ProcessGroupNCCL"
	    ".cpp:1269, inter\n"
	    "nal error, NCCL version 2.14.3\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	for (i = 0; i < t.r->incident->nevents; i++) {
		const struct event *ev = t.r->incident->events[i];

		if (strcmp(ev->sig->id, "nccl-error-raised") == 0) {
			errors++;
			assert_int_equal(ev->lineno, 1);
			assert_int_equal(ev->rank, 2);
		} else if (strcmp(ev->sig->id, "nccl-version") == 0) {
			versions++;
			assert_int_equal(ev->lineno, 2);
		}
	}
	assert_int_equal(errors, 1);
	assert_int_equal(versions, 1);
	done(&t);
}

/* A record glued after a progress bar's '\r' is read the same wherever
 * the '\r' is: in a container runtime's JSON record (as "\\r", so the
 * file's bytes hold none), in a file that has other '\r's (CRLF), and in
 * the first half of a hard-wrapped record that was written, and read,
 * before its second half. Each time the rank is the record's prefix. */
#define BAR	"Epoch 1:  50%|#####     | 5/10 [00:01<00:01]"
#define GLUED	"[rank3]:[E1130 06:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 3] " \
	"Watchdog caught collective operation timeout: WorkNCCL(SeqNum=430, " \
	"OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeo"
#define GLUED_END "ut(ms)=600000) ran for 600051 milliseconds before timing out."

static void
expect_prefix_rank(struct tcase *t, int live_halves, const char *name, const char *first,
    const char *second)
{
	const char *paths[1] = { t->dir };
	char *why = NULL;
	const struct event *ev = NULL;
	size_t i;

	TU_WRITE(t->dir, name, first);
	t->r = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(t->r);
	if (live_halves) {
		run_scan(t->r, 0);
		TU_APPEND(t->dir, name, second);
	}
	run_scan(t->r, 1);
	(void)incident_analyse(t->r->incident);
	for (i = 0; i < t->r->incident->nevents; i++)
		if (strcmp(t->r->incident->events[i]->sig->id, "watchdog-timeout") == 0)
			ev = t->r->incident->events[i];
	assert_non_null(ev);
	assert_int_equal(ev->rank, 3);
	assert_int_equal(ev->rank_from, RANK_PREFIX);
	done(t);
}

static void
test_glued_after_progress_bar(void **state)
{
	struct tcase t = { NULL, NULL };

	(void)state;
	t.dir = tu_tmpdir();
	expect_prefix_rank(&t, 0, "plain.log", BAR "\r" GLUED GLUED_END "\n", NULL);
	t.dir = tu_tmpdir();
	expect_prefix_rank(&t, 0, "docker.log", "{\"log\":\"" BAR "\\r" GLUED GLUED_END
	    "\\n\",\"stream\":\"stderr\",\"time\":\"2024-11-30T06:00:01.000Z\"}\n", NULL);
	t.dir = tu_tmpdir();
	expect_prefix_rank(&t, 0, "crlf.log", "{\"log\":\"" BAR "\\r" GLUED GLUED_END
	    "\\n\",\"stream\":\"stderr\",\"time\":\"2024-11-30T06:00:01.000Z\"}\r\n", NULL);
	t.dir = tu_tmpdir();
	expect_prefix_rank(&t, 0, "wrapped.log", BAR "\r" GLUED "\n" GLUED_END "\n", NULL);
	t.dir = tu_tmpdir();
	expect_prefix_rank(&t, 1, "halves.log", BAR "\r" GLUED "\n", GLUED_END "\n");
}

/* A record cut where all its words are in the second half: the two are
 * read as one, at the first one's place, whether they were read at once
 * or the second was written after the first had been read. */
#define STUCK_FIRST "[rank6]:[E0429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 " \
	"PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL'\n"
#define STUCK_SECOND "s watchdog got stuck for 480 seconds without making progress in " \
	"monitoring enqueued collectives. This typically indi\n" \
	"cates a hang in a CUDA call.\n"

static void
expect_stuck_at_first_half(int live)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const char *paths[1] = { t.dir };
	char *why = NULL;
	const struct event *ev = NULL;
	size_t i;

	TU_WRITE(t.dir, "combined.log", live ? STUCK_FIRST : STUCK_FIRST STUCK_SECOND);
	t.r = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(t.r);
	if (live) {
		run_scan(t.r, 0);
		TU_APPEND(t.dir, "combined.log", STUCK_SECOND);
	}
	run_scan(t.r, 1);
	(void)incident_analyse(t.r->incident);
	for (i = 0; i < t.r->incident->nevents; i++)
		if (strcmp(t.r->incident->events[i]->sig->id, "watchdog-stuck") == 0) {
			assert_null(ev);
			ev = t.r->incident->events[i];
		}
	assert_non_null(ev);
	assert_int_equal(ev->lineno, 1);
	assert_int_equal(ev->rank, 6);
	done(&t);
}

static void
test_hard_wrap_words_in_second_half(void **state)
{
	(void)state;
	expect_stuck_at_first_half(0);
	expect_stuck_at_first_half(1);
}

/* Pastes: quoted in Markdown, in pytest's failure output, with the line
 * numbers a log viewer adds, behind pdsh's host prefix. */
static void
test_pasted_excerpts(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	const struct incident *in;
	size_t i;
	int seen[8] = { 0 };

	(void)state;
	TU_WRITE(t.dir, "paste.log",
	    "> [rank1]:[E1130 06:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, "
	    "NumelOut=1, Timeout(ms)=600000) ran for 600003 milliseconds before timing out.\n"
	    "E       [rank2]:[E1130 06:00:02.000000000 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog "
	    "caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, "
	    "NumelOut=1, Timeout(ms)=600000) ran for 600004 milliseconds before timing out.\n"
	    "[81234] [rank3]:[E1130 06:00:03.000000000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog "
	    "caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, "
	    "NumelOut=1, Timeout(ms)=600000) ran for 600005 milliseconds before timing out.\n"
	    "10.4.0.7: [rank4]:[E1130 06:00:04.000000000 ProcessGroupNCCL.cpp:632] [Rank 4] Watchdog "
	    "caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, "
	    "NumelOut=1, Timeout(ms)=600000) ran for 600006 milliseconds before timing out.\n");
	an = analyse_dir(&t);
	in = t.r->incident;
	assert_int_equal(an->verdict, VERDICT_HANG);
	for (i = 0; i < in->nevents; i++)
		if (in->events[i]->rank >= 0 && in->events[i]->rank < 8 &&
		    (in->events[i]->ts.flags & STAMP_TIME))
			seen[in->events[i]->rank] = 1;
	for (i = 1; i <= 4; i++)
		assert_int_equal(seen[i], 1);
	/* pdsh's prefix is the host */
	assert_non_null(incident_rank(in, 4)->host);
	assert_string_equal(incident_rank(in, 4)->host, "10.4.0.7");
	done(&t);
}

/* A hint is not a rival cause: a slow-bucket symptom long before an OOM
 * leaves the OOM's confidence alone. */
static void
test_symptom_is_no_rival(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "rank0.log",
	    "[2024-11-30 07:00:00,000] [INFO] [t.py:1:f] step 10\n"
	    "Avg backward comm/comp overlap time: 0\n"
	    "[2024-11-30 07:30:00,000] [INFO] [t.py:1:f] step 900\n");
	TU_WRITE(t.dir, "rank1.log",
	    "[2024-11-30 07:00:00,000] [INFO] [t.py:1:f] step 10\n"
	    "[2024-11-30 07:30:00,000] [INFO] [t.py:1:f] step 900\n"
	    "[2024-11-30 07:30:05,000] [ERROR] [t.py:1:f] torch.OutOfMemoryError: CUDA out of "
	    "memory. Tried to allocate 4.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which "
	    "1.02 GiB is free.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->confidence, "high");
	done(&t);
}

/* c10d's dump signal names the rank that first saw the timeout. */
static void
test_dump_signal_points_at_rank(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "rank0.log",
	    "[rank0]:[E1130 08:00:09.100000000 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID "
	    "0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 21 "
	    "and we will try our best to dump the debug info. Last enqueued NCCL work: 300, last "
	    "completed NCCL work: 299.\n");
	TU_WRITE(t.dir, "rank21.log",
	    "[rank21]:[E1130 08:00:08.900000000 ProcessGroupNCCL.cpp:632] [Rank 5] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=88, OpType=ALLTOALL_BASE, NumelIn=64, "
	    "NumelOut=64, Timeout(ms)=600000) ran for 600090 milliseconds before timing out.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 21);
	assert_non_null(strstr(an->suspects[0].reason, "points at it"));
	done(&t);
}

/* torch.multiprocessing.spawn names the failed process before the
 * worker's traceback: the traceback's error is that rank's. */
static void
test_spawn_header_names_following_lines(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "out.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/opt/app/main.py\", line 88, in <module>\n"
	    "    mp.spawn(train, nprocs=4)\n"
	    "torch.multiprocessing.spawn.ProcessRaisedException: \n"
	    "\n"
	    "-- Process 2 terminated with the following error:\n"
	    "Traceback (most recent call last):\n"
	    "  File \"/opt/app/main.py\", line 51, in train\n"
	    "    out = model(batch)\n"
	    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 2 has a "
	    "total capacity of 39.38 GiB of which 802.00 MiB is free.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	assert_string_equal(an->diags[0].entry->id, "cuda-oom");
	assert_string_equal(an->confidence, "medium");	/* local = global, assumed */
	done(&t);
}

/* A monitored barrier names the ranks that did not arrive. */
static void
test_barrier_names_ranks(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i, found = 0;

	(void)state;
	TU_WRITE(t.dir, "rank0.log",
	    "[rank0]: RuntimeError: [Rank 0]: Ranks 2, 5 failed to pass monitoredBarrier in "
	    "30000 ms\n");
	an = analyse_dir(&t);
	assert_int_not_equal(an->verdict, VERDICT_HEALTHY);
	for (i = 0; i < an->nsuspects; i++)
		if (an->suspects[i].rank == 2 || an->suspects[i].rank == 5)
			found++;
	assert_int_equal(found, 2);
	done(&t);
}

/* A launcher's time says when it noticed; a specific error with no time
 * on another rank cannot be ordered against it: they tie, and the
 * specific one is named. */
static void
test_launcher_time_ties_untimed_error(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank0]: gpu-k01:6001:6090 [0] init.cc:871 NCCL WARN Duplicate GPU detected : rank 0 "
	    "and rank 1 both on CUDA device 3b000\n"
	    "E1130 11:00:17.407000 6000 torch/distributed/elastic/multiprocessing/api.py:882] "
	    "failed (exitcode: 1) local_rank: 1 (pid: 6002) of binary: /usr/bin/python3\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-duplicate-gpu");
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "cannot be ordered"));
	done(&t);
}

/* log alone is a failure of fallout only, with no initiating event, and
 * a reason that says why. */
static void
expect_fallout_only(const char *log, const char *why)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	TU_WRITE(t.dir, "combined.log", log);
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_null(an->initiating);
	assert_non_null(strstr(an->reason, why));
	done(&t);
}

/* An exception of a kind that is fallout (a connection reset, c10d's
 * Dist*Error, a store's socket timeout) in words no more telling
 * signature reads is still fallout: never "healthy". */
static void
test_unread_fallout_exception(void **state)
{
	static const char *const lines[] = {
	    "[rank2]: torch.distributed.DistBackendError: a backend failure in new words\n",
	    "[rank2]: ConnectionResetError: [Errno 104] Connection reset by peer\n",
	    "[rank2]: RuntimeError: Socket Timeout\n" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof *lines; i++)
		expect_fallout_only(lines[i], "fallout only");
}

/* An NCCL system error raised on a rank is fallout of a peer that went
 * away: never "healthy"; with no rank waiting, a failure of fallout
 * only, whose cause is not in the log. */
static void
test_nccl_system_error_is_fallout(void **state)
{
	(void)state;
	expect_fallout_only(
	    "[rank1]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/"
	    "distributed/c10d/ProcessGroupNCCL.cpp:3100, unhandled system error (run with "
	    "NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n", "fallout only");
}

/* NCCL's init lines are counted, not kept, past the earliest (one per
 * rank per communicator, 131,072 at that scale); what attribution reads
 * of them still holds for the others: the largest communicator's size,
 * and the GPU bus of each rank, which gives a kernel Xid line its rank. */
static void
test_init_lines_summarised(void **state)
{
	static const char *const bus[] = { "18000", "2a000", "3b000", "5d000" };
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	const struct event *xid = NULL;
	size_t i, inits = 0;
	char name[32], line[512];
	int r;

	(void)state;
	for (r = 0; r < 4; r++) {
		snprintf(name, sizeof name, "rank%d.log", r);
		/* the earliest (rank0.log) is a communicator of 2 */
		snprintf(line, sizeof line,
		    "gpu-d01:9%03d:9%03d [%d] NCCL INFO comm 0x55d0c0ffee%02d rank %d nranks %d "
		    "cudaDev %d busId %s commId 0x1234abcd - Init COMPLETE\n", r, r, r, r, r % 2,
		    r == 0 ? 2 : 4, r, bus[r]);
		TU_WRITE(t.dir, name, line);
	}
	TU_WRITE(t.dir, "kern.log", "Dec 18 05:10:01 gpu-d01 kernel: NVRM: Xid (PCI:0000:5d:00): "
	    "79, pid=9003, GPU has fallen off the bus.\n");
	an = analyse_dir(&t);
	for (i = 0; i < t.r->incident->nevents; i++) {
		const struct event *ev = t.r->incident->events[i];

		if (strcmp(ev->sig->id, "comm-init-device") == 0)
			inits++;
		if (strcmp(ev->sig->id, "xid-fatal") == 0)
			xid = ev;
	}
	assert_int_equal(inits, 1);
	assert_int_equal(an->world, 4);
	assert_string_equal(an->world_from, "the size of the largest NCCL communicator");
	assert_non_null(xid);
	assert_int_equal(xid->rank, 3);
	assert_int_equal(xid->via, VIA_GPU);
	done(&t);
}

#define TB_HEAD	"Traceback (most recent call last):\n"
#define TB_FRAME "  File \"/srv/app/train.py\", line 88, in train_step\n" \
	"    loss = model(batch)\n"

/* A log (or a paste of it) that ends inside a rank's traceback, before
 * its exception line: that rank failed, the report says the rest is
 * missing, and it is no more than medium sure. */
static void
test_traceback_cut_at_end(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank0]: step 10 | loss 2.1\n"
	    "[rank1]: step 10 | loss 2.2\n"
	    "[rank1]: " TB_HEAD
	    "[rank1]:   File \"/srv/app/train.py\", line 88, in train_step\n"
	    "[rank0]: step 11 | loss 2.0\n"
	    "[rank1]:     loss = model(batch)\n"
	    "[rank1]:             ^^^^^^^^^^^^\n"
	    "[rank1]:\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->initiating->sig->id, "python-traceback-cut");
	assert_int_equal(an->initiating->lineno, 3);	/* where it began */
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "cut short"));
	assert_int_equal(an->ndiags, 1);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	done(&t);

	/* followed, the file may go on: nothing yet; at its end, the cut */
	t.dir = tu_tmpdir();
	TU_WRITE(t.dir, "rank1.log", "step 10 | loss 2.2\n" TB_HEAD TB_FRAME);
	{
		const char *paths[1] = { t.dir };
		char *why = NULL;

		t.r = run_new(rb, paths, 1, NULL, &why);
		assert_non_null(t.r);
		run_scan(t.r, 0);
		an = incident_analyse(t.r->incident);
		assert_null(an->initiating);
		run_scan(t.r, 1);
		an = incident_analyse(t.r->incident);
		assert_non_null(an->initiating);
		assert_int_equal(an->initiating->rank, 1);
		assert_int_equal(an->initiating->lineno, 2);
	}
	done(&t);

	/* the same traceback with its exception line: that line is the event */
	an = analyse_log(&t, "rank1.log", "step 10 | loss 2.2\n" TB_HEAD TB_FRAME
	    "ValueError: shapes (4, 512) and (4, 256) do not match\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->initiating->sig->id, "python-exception");
	assert_string_equal(an->confidence, "high");
	done(&t);
}

/* A traceback the rank goes on from (a logged, handled exception, or one
 * whose last line no entry knows) is no cut one, and neither is a frame
 * that only borrowed a rank from the record before it. */
static void
test_traceback_that_goes_on_is_not_cut(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "rank0.log", "step 10 | loss 2.2\n" TB_HEAD TB_FRAME
	    "retrying the step with a smaller batch\n"
	    "step 11 | loss 2.1\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);

	an = analyse_log(&t, "driver.log",
	    "[rank0]: step 10 | loss 2.2\n"
	    "[rank0]: Timeout at step 10, retrying\n"
	    TB_FRAME
	    "ray.exceptions.RayTaskError(ActorDiedError): the actor died unexpectedly\n");
	assert_null(an->initiating);
	done(&t);
}

/* A traceback cut short a record after its stream's own timeout is that
 * timeout's raise, not a failure of its own: with a rank (its rank in its
 * file) and with none (its process in its file). One further on still
 * counts. */
#define GLOO_WAIT "RuntimeError: [gloo/transport/tcp/unbound_buffer.cc:136] " \
	"Timed out waiting 900000ms for recv operation to complete\n"

static void
test_traceback_cut_after_own_wait(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	/* with no rank (vLLM's header names none) and with one */
	static const char *const pfx[] = { "ERROR 03-02 11:20:41 [engine.py:88] ", "[rank2]: " };
	char far[4096];
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < 2; i++) {
		snprintf(far, sizeof far, "%s" GLOO_WAIT "%s" TB_HEAD "%s" TB_FRAME,
		    pfx[i], pfx[i], pfx[i]);
		an = analyse_log(&t, "combined.log", far);
		assert_int_equal(an->verdict, VERDICT_HANG);
		assert_null(an->initiating);
		done(&t);
	}

	/* the timeout long before: the traceback is a record of its own */
	n += (size_t)snprintf(far + n, sizeof far - n, GLOO_WAIT);
	for (i = 0; i < RECORD_SPAN + 2; i++)
		n += (size_t)snprintf(far + n, sizeof far - n, "retrying batch %zu\n", i);
	snprintf(far + n, sizeof far - n, "%s%s", TB_HEAD, TB_FRAME);
	an = analyse_log(&t, "combined.log", far);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->id, "python-traceback-cut");
	done(&t);
}

/* The end of a log cut inside a traceback (a launcher's own, after it
 * reported a worker's failure) is the evidence of last resort: a failure
 * that says what it was comes first, even an untimed one. */
static void
test_traceback_cut_gives_way(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "W1130 03:14:05.512000 7701 torch/distributed/elastic/multiprocessing/api.py:900] "
	    "Sending process 7703 closing signal SIGTERM\n"
	    TB_HEAD
	    "  File \"/usr/bin/torchrun\", line 8, in <module>\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->initiating->sig->entry->id, "cuda-illegal-memory-access");
	for (i = 0; i < an->ndiags; i++) {	/* and it is no evidence */
		size_t j;

		for (j = 0; j < an->diags[i].nevidence; j++)
			assert_false(an->diags[i].evidence_events[j]->sig->only_at_end);
	}
	done(&t);
}

/* NCCL 2.19+ follows its generic "internal error" with the reason ("Last
 * error:" and the failed call): the entry that knows the reason explains
 * the failure, not the generic one. */
static void
test_last_error_explains(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "rank5.log",
	    "step 10 | loss 2.2\n"
	    "torch.distributed.DistBackendError: NCCL error in: /src/ProcessGroupNCCL.cpp:1691, "
	    "internal error - please report this issue to the NCCL developers, NCCL version 2.19.3\n"
	    "ncclInternalError: Internal check failed.\n"
	    "Last error:\n"
	    "Net : Call to recv from 10.1.2.3<41222> failed : Connection refused\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 5);
	assert_string_equal(an->initiating->sig->entry->id, "rank-exception");
	assert_true(an->ndiags >= 2);
	assert_string_equal(an->diags[0].entry->id, "nccl-network-error");
	assert_true(an->diags[0].owns_initiating);
	assert_false(an->diags[1].owns_initiating);
	done(&t);

	/* without the reason, the generic entry is all there is */
	an = analyse_log(&t, "rank5.log",
	    "step 10 | loss 2.2\n"
	    "torch.distributed.DistBackendError: NCCL error in: /src/ProcessGroupNCCL.cpp:1691, "
	    "internal error - please report this issue to the NCCL developers, NCCL version 2.19.3\n");
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	assert_true(an->diags[0].owns_initiating);
	done(&t);
}

/* While another rank reports fallout, a traceback cut short is as likely
 * the same fallout (every rank prints one after an abort; the paste cut
 * one of them): no rank is named for it. */
static void
test_traceback_cut_beside_fallout(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "[rank5]: RuntimeError: NCCL communicator was aborted on rank 5.\n"
	    "[rank3]: " TB_HEAD
	    "[rank3]:   File \"/srv/app/train.py\", line 88, in train_step\n");
	an = analyse_dir(&t);
	assert_null(an->initiating);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);

	/* fallout of its own rank (its launcher's exit code) is no other's */
	an = analyse_log(&t, "rank3.log", "step 10 | loss 2.2\n"
	    "Sending process 4711 closing signal SIGTERM\n" TB_HEAD TB_FRAME);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->initiating->sig->id, "python-traceback-cut");
	done(&t);
}

/* A failure line that carries only its host (pdsh's prefix): the reason
 * names the host, all that locates it. */
static void
test_unranked_failure_names_its_host(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "node-07.cluster: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
	    "2.00 GiB. GPU 2 has a total capacity of 79.10 GiB of which 1.02 GiB is free.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, -1);
	assert_non_null(strstr(an->reason, "carries no rank, only its host, node-07.cluster"));
	done(&t);
}

/* One line, a bare exception and a CUDA fault: the CUDA entry speaks for
 * it, and the generic entry is no diagnosis of its own. */
static void
test_specific_line_outweighs_generic(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	TU_WRITE(t.dir, "rank2.log", "step 10 | loss 2.2\n"
	    "RuntimeError: CUDA error: an illegal memory access was encountered\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	for (i = 0; i < an->ndiags; i++)
		assert_string_not_equal(an->diags[i].entry->id, "rank-exception");
	done(&t);

	/* a bare exception on a line of its own still is one */
	an = analyse_log(&t, "rank2.log", "step 10 | loss 2.2\n"
	    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "ValueError: shapes do not match\n");
	for (i = 0; i < an->ndiags; i++)
		if (strcmp(an->diags[i].entry->id, "rank-exception") == 0)
			break;
	assert_true(i < an->ndiags);
	done(&t);
}

/* Rank 0's watchdog timeout of SeqNum 812, an all-reduce of 16 */
#define TIMEOUT_RANK0 "[rank0]:[E0302 10:40:00.100000000 ProcessGroupNCCL.cpp:632] " \
	"[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, " \
	"OpType=ALLREDUCE, NumelIn=16, NumelOut=16, Timeout(ms)=600000) ran for " \
	"600021 milliseconds before timing out.\n"

/* Rank r's file: a step, its watchdog timeout of SeqNum 812 (op, numel)
 * at second sec, and then the line after, if any. */
static void
write_timeout(const char *dir, int r, int sec, const char *op, int numel, const char *after)
{
	char name[32], text[1024];

	snprintf(name, sizeof name, "rank%d.log", r);
	snprintf(text, sizeof text, "step 10 | loss 2.2\n"
	    "[rank%d]:[E0302 10:40:0%d.100000000 ProcessGroupNCCL.cpp:632] [Rank %d] "
	    "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, "
	    "OpType=%s, NumelIn=%d, NumelOut=%d, Timeout(ms)=600000) ran for "
	    "600021 milliseconds before timing out.\n%s%s", r, sec, r, op, numel, numel,
	    after ? after : "", after ? "\n" : "");
	TU_WRITE(dir, name, text);
}

/* Watchdog lines of one all-reduce or broadcast (same SeqNum) with
 * different NumelIn: a collective called with another tensor. The rare
 * count is the suspect; the entry is the mismatch, not the timeout. */
static void
test_timeout_numel_differs(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	int r;

	(void)state;
	for (r = 0; r < 4; r++)
		write_timeout(t.dir, r, r, "BROADCAST", r == 1 ? 5120 : 16, NULL);
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "collective-mismatch");
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 1);
	done(&t);

	/* the same counts in an all-to-all, whose sizes may differ: no
	 * mismatch */
	t.dir = tu_tmpdir();
	for (r = 0; r < 4; r++)
		write_timeout(t.dir, r, r, "ALLTOALL_BASE", r == 1 ? 5120 : 16, NULL);
	an = analyse_dir(&t);
	assert_string_not_equal(an->diags[0].entry->id, "collective-mismatch");
	done(&t);

	/* one SeqNum, another operation on rank 1 (its count differs too):
	 * out of step, not a tensor of another size */
	t.dir = tu_tmpdir();
	for (r = 0; r < 4; r++)
		write_timeout(t.dir, r, r, r == 1 ? "BROADCAST" : "ALLREDUCE", r == 1 ? 5120 : 16,
		    NULL);
	an = analyse_dir(&t);
	assert_string_equal(an->diags[0].entry->id, "collective-desync");
	for (r = 0; r < (int)an->ndiags; r++)
		assert_string_not_equal(an->diags[r].entry->id, "collective-mismatch");
	done(&t);
}

/* What a rank reports after its own watchdog timeout is the timeout's
 * consequence: the SIGABRT the watchdog sends (faulthandler's "Fatal
 * Python error: Aborted"), an exception from state the failed collective
 * left. No rank failed on its own: a hang. */
static void
test_error_after_own_timeout_is_fallout(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	write_timeout(t.dir, 0, 0, "ALLREDUCE", 16, "Fatal Python error: Aborted");
	write_timeout(t.dir, 1, 0, "ALLREDUCE", 16, "[rank1]: RuntimeError: Invalid generator state");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	for (i = 0; i < an->ndiags; i++)
		assert_string_not_equal(an->diags[i].entry->id, "segfault");
	done(&t);

	/* with no rank: a crash handler's notice after a rank's timeout is
	 * that timeout's SIGABRT as likely as anything; a CUDA error is not
	 * (a combined log, a host's prefix, no record to continue) */
	an = analyse_log(&t, "combined.log", "step 10 | loss 2.2\n"
	    TIMEOUT_RANK0
	    "\n"
	    "Fatal Python error: Aborted\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	done(&t);
	an = analyse_log(&t, "combined.log", "step 10 | loss 2.2\n"
	    TIMEOUT_RANK0
	    "\n"
	    "worker: RuntimeError: CUDA error: an illegal memory access was encountered\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	done(&t);

	/* the same error written before the timeout is the rank's own */
	t.dir = tu_tmpdir();
	TU_WRITE(t.dir, "rank0.log", "step 10 | loss 2.2\n"
	    "[rank0]: RuntimeError: Invalid generator state\n"
	    TIMEOUT_RANK0);
	TU_WRITE(t.dir, "rank1.log", "step 10 | loss 2.2\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 0);
	done(&t);
}

/* Ranks that died of a peer's or the network's error, none of its own
 * and none waiting: a failure whose cause the logs do not show, not a
 * hang. The generic NCCL lines every error ends with do not make a wait
 * of it; one watchdog timeout does. */
static void
test_fallout_only_failure(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	int r;

	(void)state;
	for (r = 1; r < 4; r++) {
		char name[32], text[768];

		snprintf(name, sizeof name, "rank%d.log", r);
		snprintf(text, sizeof text, "step 10 | loss 2.2\n"
		    "[rank%d]:[E0302 10:40:0%d.100000000 ProcessGroupNCCL.cpp:681] [Rank %d] Some NCCL "
		    "operations have failed or timed out. Due to the asynchronous nature of CUDA "
		    "kernels, subsequent GPU operations might run on corrupted/incomplete data.\n"
		    "[rank%d]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:"
		    "2010, remote process exited or there was a network error, NCCL version 2.21.5\n",
		    r, r, r, r);
		TU_WRITE(t.dir, name, text);
	}
	TU_WRITE(t.dir, "rank0.log", "step 9 | loss 2.3\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_null(an->initiating);
	assert_string_equal(an->diags[0].entry->id, "nccl-network-error");
	assert_non_null(strstr(an->reason, "fallout only"));
	assert_non_null(strstr(an->reason, "NCCL transport error"));
	done(&t);

	/* one rank's watchdog timeout: the ranks waited, a hang */
	t.dir = tu_tmpdir();
	for (r = 1; r < 4; r++) {
		char name[32], text[768];

		snprintf(name, sizeof name, "rank%d.log", r);
		snprintf(text, sizeof text, "step 10 | loss 2.2\n"
		    "[rank%d]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:"
		    "2010, remote process exited or there was a network error, NCCL version 2.21.5\n",
		    r);
		TU_WRITE(t.dir, name, text);
	}
	write_timeout(t.dir, 0, 0, "ALLREDUCE", 16, NULL);
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	done(&t);
}

/* vLLM's engine names the worker that died by its process name,
 * VllmWorker-<rank>: its rank in the engine, taken as a local rank; the
 * others' prefixes give their tensor-parallel ranks. */
static void
test_serving_worker_named_dead(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "serve.log",
	    "(VllmWorker TP0 pid=2201) INFO 03-14 09:12:30 [gpu_model_runner.py:1800] step done\n"
	    "(VllmWorker TP1 pid=2202) INFO 03-14 09:12:30 [gpu_model_runner.py:1800] step done\n"
	    "(VllmWorker TP2 pid=2203) INFO 03-14 09:12:30 [gpu_model_runner.py:1800] step done\n"
	    "(VllmWorker TP3 pid=2204) INFO 03-14 09:12:30 [gpu_model_runner.py:1800] step done\n"
	    "(EngineCore_0 pid=2100) ERROR 03-14 09:12:40 [multiproc_executor.py:150] Worker proc "
	    "VllmWorker-2 died unexpectedly, shutting down executor.\n"
	    "(VllmWorker TP0 pid=2201) INFO 03-14 09:12:40 [multiproc_executor.py:520] Parent process "
	    "exited, terminating worker\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	/* a local rank taken as global, and a line that says the worker
	 * died, not why: the evidence of last resort */
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "not in these logs"));
	done(&t);
}

/* A worker's error line with no time, then its launcher's timed notice
 * that a child failed (SGLang's sigquit), from the same process: the line
 * order says which came first, though timeless lines sort last. Another
 * process's timeless line does not jump the queue. */
static void
test_untimed_error_before_timed_notice(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "driver.log",
	    "(Actor pid=7301)   File \"/srv/model_runner.py\", line 88, in forward\n"
	    "(Actor pid=7301) RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "(Actor pid=7301) [2025-06-02 11:40:17] Received sigquit from a child process. It usually "
	    "means the child failed.\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->entry->id, "cuda-illegal-memory-access");
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	done(&t);

	/* the timeless error of another process: no order between them */
	an = analyse_log(&t, "driver.log",
	    "(Actor pid=7302) RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "(Actor pid=7301) [2025-06-02 11:40:17] Received sigquit from a child process. It usually "
	    "means the child failed.\n");
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->id, "child-failed-notice");
	done(&t);
}

/* A launcher passing its workers' output through unprefixed: the error
 * line names no rank, the launcher's own line names the one worker that
 * failed. */
#define SIGTERM_LINE(pid) "W0301 10:00:05.100000 2001 torch/distributed/elastic/multiprocessing/" \
	"api.py:897] Sending process " pid " closing signal SIGTERM\n"
#define WORKER_ERROR \
	"Traceback (most recent call last):\n" \
	"  File \"/srv/train.py\", line 88, in <module>\n" \
	"    main()\n" \
	"ValueError: batch 17 has 511 tokens, the model wants 512\n"

static void
test_failed_worker_owns_unranked_error(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "job.out", WORKER_ERROR SIGTERM_LINE("2010") SIGTERM_LINE("2011")
	    "E0301 10:00:05.900000 2001 torch/distributed/elastic/multiprocessing/api.py:869] "
	    "failed (exitcode: -6) local_rank: 2 (pid: 2012) of binary: /usr/bin/python3\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->entry->id, "rank-exception");
	assert_int_equal(an->initiating->rank, 2);
	assert_int_equal(an->initiating->via, VIA_EXIT);
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "the one worker the launcher reports failed"));
	done(&t);

	/* two workers failed: which one printed it, the logs do not say */
	an = analyse_log(&t, "job.out", WORKER_ERROR
	    "E0301 10:00:05.900000 2001 torch/distributed/elastic/multiprocessing/api.py:869] "
	    "failed (exitcode: -6) local_rank: 2 (pid: 2012) of binary: /usr/bin/python3\n"
	    "E0301 10:00:05.950000 2001 torch/distributed/elastic/multiprocessing/api.py:869] "
	    "failed (exitcode: -9) local_rank: 1 (pid: 2011) of binary: /usr/bin/python3\n");
	assert_non_null(an->initiating);
	assert_int_not_equal(an->initiating->via, VIA_EXIT);
	done(&t);

	/* workers the launcher terminated are no failed worker */
	an = analyse_log(&t, "job.out", WORKER_ERROR SIGTERM_LINE("2010") SIGTERM_LINE("2011")
	    "E0301 10:00:05.900000 2001 torch/distributed/elastic/multiprocessing/api.py:869] "
	    "failed (exitcode: -15) local_rank: 0 (pid: 2010) of binary: /usr/bin/python3\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, -1);
	done(&t);

	/* where the workers' lines carry their ranks, an unprefixed error
	 * is not a worker's */
	an = analyse_log(&t, "job.out", "[rank0]:[W301 10:00:01.000000 2012 ProcessGroupNCCL.cpp:4561] "
	    "[PG ID 0 PG GUID 0 Rank 0]  using GPU 0 to perform barrier as devices used by this "
	    "process are currently unknown.\n" WORKER_ERROR
	    "E0301 10:00:05.900000 2001 torch/distributed/elastic/multiprocessing/api.py:869] "
	    "failed (exitcode: -6) local_rank: 2 (pid: 2012) of binary: /usr/bin/python3\n");
	assert_non_null(an->initiating);
	assert_int_not_equal(an->initiating->via, VIA_EXIT);
	done(&t);
}

/* The NCCL bootstrap root rejects a rank that checks in twice and gives
 * up: a failure, though no rank printed an error of its own; the rank it
 * names is a suspect, not the line's. */
static void
test_bootstrap_duplicate_rank(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "gpu-a1:3301:3301 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.11<0>\n"
	    "gpu-a2:4410:4410 [1] NCCL INFO Bootstrap : Using ib0:10.1.0.12<0>\n"
	    "gpu-a1:3301:3390 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 5 of 16 ranks "
	    "has already checked in\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, -1);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	assert_true(an->nsuspects >= 1);
	assert_int_equal(an->suspects[0].rank, 5);
	done(&t);
}

/* PyTorch before SeqNum printed "WorkNCCL(OpType=..., Timeout(ms)=...)":
 * a group_by fact no line carries puts the timeouts in one group, and the
 * rank in another collective is the odd one out; where the lines do say
 * the SeqNum, different ones are no group. */
static void
test_group_fact_never_printed(void **state)
{
	static const char *const seqs[2] = { "", "SeqNum=%d, " };
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		struct tcase t = { tu_tmpdir(), NULL };
		const struct analysis *an;
		const struct condresult *c;
		char buf[2048], fmt[512];
		size_t n = 0;
		int k;

		for (k = 0; k < 4; k++) {
			snprintf(fmt, sizeof fmt, "[E ProcessGroupNCCL.cpp:566] [Rank %%d] Watchdog caught "
			    "collective operation timeout: WorkNCCL(%sOpType=%%s, Timeout(ms)=1800000) ran "
			    "for 18010%%d milliseconds before timing out.\n", seqs[pass]);
			if (pass == 0)
				n += (size_t)snprintf(buf + n, sizeof buf - n, fmt, k,
				    k == 2 ? "ALLREDUCE" : "BROADCAST", 40 + k);
			else
				n += (size_t)snprintf(buf + n, sizeof buf - n, fmt, k, k == 2 ? 11 : 10,
				    k == 2 ? "ALLREDUCE" : "BROADCAST", 40 + k);
		}
		TU_WRITE(t.dir, "combined.log", buf);
		an = analyse_dir(&t);
		assert_int_equal(an->verdict, VERDICT_HANG);
		c = tu_cond(an, "timeout-op-differs");
		assert_non_null(c);
		if (pass == 0) {
			assert_true(c->met);
			assert_int_equal(c->nblamed, 1);
			assert_int_equal(c->blamed[0], 2);
			assert_non_null(strstr(c->detail, "these logs print no seq"));
			assert_string_equal(an->diags[0].entry->id, "collective-desync");
			assert_int_equal(an->suspects[0].rank, 2);
		} else
			assert_false(c->met);	/* SeqNum 10 and 11: no one group */
		done(&t);
	}
}

/* The log, analysed: a failure whose first failure's line names no rank. */
static const struct analysis *
unranked_failure(struct tcase *t, const char *log)
{
	const struct analysis *an;

	TU_WRITE(t->dir, "combined.log", log);
	an = analyse_dir(t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, -1);
	return an;
}

/* The first failure's line names no rank, and one rank alone reports
 * trouble: that rank is a suspect (the likeliest writer of the line);
 * with two such ranks, neither. */
static void
test_lone_troubled_rank_suspect(void **state)
{
	static const char *const second[2] = { "", "[rank4]: RuntimeError: NCCL Error 2: unhandled "
	    "system error (run with NCCL_DEBUG=INFO for details)\n" };
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		struct tcase t = { tu_tmpdir(), NULL };
		const struct analysis *an;
		char buf[1024];

		snprintf(buf, sizeof buf,
		    "[2025-10-13 10:12:54] gpu-x7:7001:7102 [0] misc/ibvwrap.cc:182 NCCL WARN Call to "
		    "ibv_reg_mr_iova2 failed with error Invalid argument\n"
		    "[rank9]: RuntimeError: NCCL Error 2: unhandled system error (run with "
		    "NCCL_DEBUG=INFO for details)\n%s", second[pass]);
		an = unranked_failure(&t, buf);
		if (pass == 0) {
			assert_int_equal(an->nsuspects, 1);
			assert_int_equal(an->suspects[0].rank, 9);
			assert_non_null(strstr(an->suspects[0].reason, "the one rank with trouble"));
		} else
			assert_int_equal(an->nsuspects, 0);
		done(&t);
	}
}

/* A rank alone with trouble whose trouble is a timeout was alive to time
 * out: not the owner of an unranked crash. The desync report's rank that
 * never joined the next collective is the suspect, though no line of its
 * own is in the logs (above the highest rank they show). */
static void
test_waiting_rank_owns_no_crash(void **state)
{
	static const char *const report[2] = { "", "[rank0]:\t     [1] finished collective "
	    "#5120, but didn't join collective #5121 (count from 1)\n" };
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		struct tcase t = { tu_tmpdir(), NULL };
		const struct analysis *an;
		char buf[1024];

		snprintf(buf, sizeof buf,
		    "*** SIGSEGV received at time=1775734074 on cpu 3 ***\n"
		    "PC: @     0xe1e2567f5014  (unknown)  ncclLocalOpAppend()\n"
		    "[rank0]:[E1203 11:57:54.000000000 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog "
		    "caught collective operation timeout: WorkNCCL(SeqNum=5121, OpType=ALLREDUCE, "
		    "NumelIn=4096, NumelOut=4096, Timeout(ms)=1800000) ran for 1800002 milliseconds "
		    "before timing out.\n%s", report[pass]);
		an = unranked_failure(&t, buf);
		if (pass == 0)
			assert_int_equal(an->nsuspects, 0);
		else {
			assert_int_equal(an->nsuspects, 1);
			assert_int_equal(an->suspects[0].rank, 1);
			assert_non_null(strstr(an->suspects[0].reason, "line points at it"));
		}
		done(&t);
	}
}

/* The end of torchrun's own traceback: a worker failed, though its error
 * is not in the paste. A failure (of fallout only), never healthy. */
static void
test_launcher_child_failed_is_failure(void **state)
{
	(void)state;
	expect_fallout_only(
	    " 41%|####      | 205/500 [10:02<14:26,  2.94s/it]\n"
	    "  File \"/usr/lib/python3/site-packages/torch/distributed/launcher/api.py\", line 263, "
	    "in launch_agent\n"
	    "    raise ChildFailedError(\n"
	    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n",
	    "a launcher's word that a worker failed");
}

/* NCCL's unprefixed WARN takes the rank its process's own init line
 * names, in the communicator of the whole world; in a smaller one only
 * (a sub-group's rank), none. */
static void
test_process_init_line_names_rank(void **state)
{
	static const char *const size[2] = { "4", "2" };
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		struct tcase t = { tu_tmpdir(), NULL };
		const struct analysis *an;
		char buf[1024];

		snprintf(buf, sizeof buf,
		    "node-5:7001:7090 [1] NCCL INFO comm 0x55aa01 rank 1 nranks %s cudaDev 1 "
		    "busId 3d000 - Init COMPLETE\n"
		    "node-5:7000:7091 [0] NCCL INFO comm 0x55aa02 rank 0 nranks 4 cudaDev 0 "
		    "busId 1d000 - Init COMPLETE\n"
		    "node-5:7001:7120 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion "
		    "from peer 10.1.0.12<40121> with error 12, opcode 0, len 0, vendor err 129\n",
		    size[pass]);
		TU_WRITE(t.dir, "combined.log", buf);
		an = analyse_dir(&t);
		assert_int_equal(an->verdict, VERDICT_FAILURE);
		assert_non_null(an->initiating);
		if (pass == 0) {
			assert_int_equal(an->initiating->rank, 1);
			assert_int_equal(an->initiating->via, VIA_PROCESS);
			assert_string_equal(an->confidence, "medium");
			assert_non_null(strstr(an->reason, "its process's NCCL init line"));
		} else
			assert_int_equal(an->initiating->rank, -1);
		done(&t);
	}
}

#define AGENT_ABORT(t, lr, pid) "E0101 " t ".000000 77 torch/distributed/elastic/" \
	"multiprocessing/api.py:874] failed (exitcode: -6) local_rank: " lr " (pid: " pid \
	") of binary: /usr/bin/python3\n"

/* The launcher's word that a worker aborted (exit code -6) says that it
 * died, not why: the abort of a rank that timed out (the NCCL watchdog)
 * or a crash of its own (a C++ assert, heap corruption). It is the
 * rank's own failure only when nothing else in the run says what failed
 * and no rank may have timed out before it, and then of low confidence. */
static void
test_abort_is_last_resort(void **state)
{
	static const struct {
		const char	*log;
		enum verdict	 verdict;
	} untaken[] = {
		{ AGENT_ABORT("10:00:00", "0", "4410") AGENT_ABORT("10:00:01", "1", "4411"),
		  VERDICT_HANG },
		{ "[1,3]<stderr>:*** Aborted at 1547614213 (unix time) try \"date -d "
		  "@1547614213\" if you are using GNU date ***\n"
		  "[1,5]<stderr>:*** Aborted at 1547614213 (unix time) try \"date -d "
		  "@1547614213\" if you are using GNU date ***\n", VERDICT_FAILURE },
		{ "[rank5]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/"
		  "pair.cc:544] Connection closed by peer [10.2.96.68]:21932\n"
		  "W0826 12:47:25.330000 77 torch/distributed/elastic/multiprocessing/api.py:900] "
		  "Sending process 4412 closing signal SIGTERM\n"
		  "*** Aborted at 1756212445 (unix time) try \"date -d @1756212445\" if you are "
		  "using GNU date ***\n", VERDICT_FAILURE },
	};
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;
	size_t i, j;

	(void)state;
	TU_WRITE(t.dir, "combined.log", "step 10 | loss 2.2\n"
	    AGENT_ABORT("10:00:00", "2", "4411"));
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	assert_true(an->initiating->sig->last_resort);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "no rank timed out before it"));
	assert_string_equal(an->diags[0].entry->id, "segfault");
	done(&t);

	/* a timeout before it, even the generic line, even with no time:
	 * the watchdog's abort, a hang; the crash entry gets nothing */
	for (i = 0; i < 2; i++) {
		an = analyse_log(&t, "combined.log", i == 0 ?
		    "[rank2]:[E101 09:59:58.581306249 ProcessGroupNCCL.cpp:764] [Rank 2] Watchdog "
		    "caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, "
		    "NumelIn=3, NumelOut=3, Timeout(ms)=600000) ran for 600007 milliseconds before "
		    "timing out.\n" AGENT_ABORT("10:00:00", "2", "4411") :
		    "[E ProcessGroupNCCL.cpp:495] Some NCCL operations have failed or timed out. Due "
		    "to the asynchronous nature of CUDA kernels, subsequent GPU operations might run "
		    "on corrupted/incomplete data.\n" AGENT_ABORT("10:00:00", "2", "4411"));
		assert_int_equal(an->verdict, VERDICT_HANG);
		assert_null(an->initiating);
		for (j = 0; j < an->ndiags; j++)
			assert_string_not_equal(an->diags[j].entry->id, "segfault");
		done(&t);
	}

	/* lines of last resort not taken: ranks that aborted together
	 * (one cause, most often their watchdogs' common timeout: a hang,
	 * since the entry that reads exit code -6 as a hang's end waits);
	 * glog's crash header on two ranks at once (processes died, a
	 * failure of a cause not shown, never healthy); a crash header
	 * right after the launcher's SIGTERM (that SIGTERM's, no crash: the
	 * peer's error is all there is) */
	for (i = 0; i < sizeof untaken / sizeof *untaken; i++) {
		an = analyse_log(&t, "combined.log", untaken[i].log);
		assert_null(an->initiating);
		assert_int_equal(an->verdict, untaken[i].verdict);
		done(&t);
	}

	/* a timeout the clocks put well after it is its consequence */
	an = analyse_log(&t, "combined.log", AGENT_ABORT("10:00:00", "2", "4411")
	    "[rank0]:[E101 10:30:00.581306249 ProcessGroupNCCL.cpp:764] [Rank 0] Watchdog "
	    "caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, "
	    "NumelIn=3, NumelOut=3, Timeout(ms)=1800000) ran for 1800007 milliseconds before "
	    "timing out.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 2);
	done(&t);

	/* a C++ terminate, and on its next line why: the entry that knows
	 * the reason explains it, in every sentence that names it */
	an = analyse_log(&t, "rank3.log", "step 10 | loss 2.2\n"
	    "terminate called after throwing an instance of 'gloo::IoException'\n"
	    "  what():  [gloo/rendezvous/file_store.cc:131] Wait timeout for key(s): 7\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->initiating->sig->id, "terminate-uncaught");
	assert_string_equal(an->init_entry->id, "rendezvous-failure");
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	assert_non_null(strstr(an->reason, an->init_entry->title));
	assert_null(strstr(an->reason, "not in these logs"));
	done(&t);

	/* what made it abort, when the log shows it, is the failure */
	an = analyse_log(&t, "rank2.log", "step 10 | loss 2.2\n"
	    "double free or corruption (!prev)\n"
	    "Aborted (core dumped)\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->initiating->sig->id, "heap-corruption");
	assert_string_equal(an->confidence, "high");
	done(&t);
}

/* One line read by two entries ("Exception: process 3 terminated with
 * signal SIGKILL", a bare exception and mp.spawn's word on a killed
 * worker): the one that names the rank is the initiating event, and its
 * entry is a diagnosis even where the other weighs more. */
static void
test_initiating_line_never_outweighed(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log",
	    "  File \"/opt/conda/lib/python3.7/site-packages/torch/multiprocessing/spawn.py\", "
	    "line 107, in join\n"
	    "    (error_index, name)\n"
	    "Exception: process 3 terminated with signal SIGKILL\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->initiating->sig->entry->id, "host-oom-kill");
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "host-oom-kill");
	done(&t);
}

/* Horovod's stall inspector (rank 0, under mpirun's tags) names the
 * ranks that never submitted the tensor the others wait on, in both of
 * its forms: they are the suspects of the hang. */
static void
test_horovod_stall_names_ranks(void **state)
{
	static const char *const form[] = {
		"[1,0]<stderr>:Stalled ops:HorovodAllreduce_grads_0 [missing ranks: 3]\n",
		"[1,0]<stderr>:Missing ranks:\n"
		"[1,0]<stderr>:3: [HorovodAllreduce_grads_0, HorovodAllreduce_grads_1]\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct tcase t = { tu_tmpdir(), NULL };
		const struct analysis *an;
		char *log = xstrdup_test(
		    "[1,0]<stdout>:step 10 | loss 2.2\n"
		    "[1,1]<stdout>:step 10 | loss 2.3\n"
		    "[1,0]<stderr>:[2025-02-02 21:19:07.345988: W horovod/common/stall_inspector.cc:105] "
		    "One or more tensors were submitted to be reduced, gathered or broadcasted by "
		    "subset of ranks and are waiting for remainder of ranks for more than 60 seconds. "
		    "This may indicate that different ranks are trying to submit different tensors "
		    "or that only subset of ranks is submitting tensors, which will cause deadlock.\n",
		    form[i]);

		TU_WRITE(t.dir, "combined.log", log);
		free(log);
		an = analyse_dir(&t);
		assert_int_equal(an->verdict, VERDICT_HANG);
		assert_true(an->nsuspects > 0);
		assert_int_equal(an->suspects[0].rank, 3);
		assert_string_equal(an->diags[0].entry->id, "collective-desync");
		done(&t);
	}
}

#define BARRIER_WAIT(r) "INFO:root:Waiting in store based barrier to initialize process group " \
	"for rank: " r ", key: store_based_barrier_key:1 (world_size=4, worker_count=3, " \
	"timeout=0:30:00)\n"

/* c10d's store-based barrier says every 10 s that ranks are missing: a
 * slow rank that then arrives is no trouble, a log that ends while the
 * others wait is a hang at init (a wait, though its entry's other lines
 * are errors). */
static void
test_log_ends_in_barrier_wait(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "combined.log", BARRIER_WAIT("0") BARRIER_WAIT("2") BARRIER_WAIT("1")
	    BARRIER_WAIT("0") BARRIER_WAIT("2") BARRIER_WAIT("1"));
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	assert_int_equal(an->world, 4);
	done(&t);

	an = analyse_log(&t, "combined.log", BARRIER_WAIT("0") BARRIER_WAIT("2") BARRIER_WAIT("1")
	    "INFO:torch.distributed.distributed_c10d:Rank 0: Completed store-based barrier for "
	    "key:store_based_barrier_key:1 with 4 nodes.\n"
	    "step 1 | loss 2.31\n" "step 2 | loss 2.20\n");
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);
}

/* srun's word that one task failed names a rank when srun started the
 * ranks itself; under srun torchrun its task is a node's agent. It says
 * that the task failed, not why: a line of last resort. */
/* Ranks writing one file without a lock splice records: rank 3's error
 * inside rank 0's progress line is rank 3's, and a watchdog line cut by
 * another rank's record is whole again with the line that finishes it. */
static void
test_spliced_records(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	unsigned seen = 0;
	size_t i;

	(void)state;
	an = analyse_log(&t, "combined.log",
	    "[rank0]: step 100 loss 2.31\n"
	    "[rank1]: step 100 loss 2.30\n"
	    "[rank2]: step 100 loss 2.33\n"
	    "[rank3]: step 100 loss 2.29\n"
	    "[rank0]: step 101 loss 2.28[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
	    "allocate 2.00 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.02 GiB is free.\n"
	    "[rank1]: step 101 loss 2.27\n"
	    "[rank1]:[E1204 10:10:01.100000000 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=300, OpType=ALLREDUCE, NumelIn=1, "
	    "NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->initiating->sig->entry->id, "cuda-oom");
	done(&t);

	an = analyse_log(&t, "combined.log",
	    "[rank0]:[E1204 10:00:01.100000000 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
	    "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n"
	    "[rank1]:[E1204 10:00:01.100000000 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=1, Num"
	    "[rank2]:[E1204 10:00:01.100300000 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
	    "Timeout(ms)=600000) ran for 600013 milliseconds before timing out.\n"
	    "elOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	/* each of the three reported the timeout: none is a suspect */
	assert_int_equal(an->nsuspects, 0);
	for (i = 0; i < t.r->incident->nevents; i++) {
		const struct event *ev = t.r->incident->events[i];

		if (strcmp(ev->sig->entry->id, "nccl-watchdog-timeout") == 0 && ev->rank >= 0 &&
		    ev->rank < 3)
			seen |= 1u << ev->rank;
	}
	assert_int_equal(seen, 7);
	done(&t);
}

/* An NCCL init that failed before "Init COMPLETE": the connection lines
 * a process printed name its rank ("Channel 00/0 : 2[2] -> 3[3]" by rank
 * 2, "... -> 0[0] [receive]" by rank 0), which its WARN takes; a process
 * whose connection lines name two ranks (two communicators) gets none. */
static void
test_connection_lines_name_process(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "nccl.log",
	    "gpu-c04:7100:7190 [0] NCCL INFO Channel 00/0 : 3[3] -> 0[0] [receive] via NET/IB/0\n"
	    "gpu-c04:7100:7190 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
	    "gpu-c04:7101:7191 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/IPC\n"
	    "gpu-c04:7102:7192 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via P2P/IPC\n"
	    "gpu-c04:7102:7192 [2] NCCL INFO Channel 01/0 : 2[2] -> 3[3] via P2P/IPC\n"
	    "gpu-c04:7102:7192 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n"
	    "gpu-c04:7102:7192 [2] NCCL INFO transport/shm.cc:187 -> 1\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	assert_string_equal(an->confidence, "medium");
	assert_non_null(strstr(an->reason, "connection lines"));
	done(&t);

	an = analyse_log(&t, "nccl.log",
	    "gpu-c04:7102:7192 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via P2P/IPC\n"
	    "gpu-c04:7102:7192 [2] NCCL INFO Channel 00/0 : 0[2] -> 1[3] via P2P/IPC\n"
	    "gpu-c04:7102:7192 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, -1);
	done(&t);
}

/* Ranks that waited for the store's reply for the whole timeout, then a
 * serving worker's exception, whose traceback says no more: the ranks
 * meant to join never did (a hang at start-up), not a failure of the one
 * that said it died. */
static void
test_store_wait_before_worker_exception(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "[rank2]:[W1130 04:12:09.118273645 socket.cpp:487] [c10d] waitForInput: socket "
	    "SocketImpl(fd=87, addr=[gpu-b07]:40122, remote=[gpu-a01]:29500) timed out after "
	    "1800000ms\n"
	    "[rank3]:[W1130 04:12:09.118281002 socket.cpp:487] [c10d] waitForInput: socket "
	    "SocketImpl(fd=88, addr=[gpu-b07]:40124, remote=[gpu-a01]:29500) timed out after "
	    "1800000ms\n"
	    "[2025-11-30 04:12:09 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
	    "  File \"/opt/srv/scheduler.py\", line 88, in run_scheduler_process\n"
	    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
}

/* NCCL retrying a connect is a weak sign while the run goes on, and a
 * wait when its process's output ends in it (stuck at init). */
#define RETRY "node-7:40112:40190 [3] NCCL INFO Call to connect returned Connection refused, retrying\n"
static void
test_log_ends_in_connect_retry(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "nccl.log",
	    "node-7:40112:40112 [3] NCCL INFO Bootstrap : Using ib0:10.0.0.7<0>\n" RETRY RETRY);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);

	an = analyse_log(&t, "nccl.log", RETRY
	    "node-7:40112:40190 [3] NCCL INFO comm 0x55df01b24dd0 rank 3 nranks 4 cudaDev 3 busId "
	    "7000 - Init COMPLETE\n");
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);

	/* a paste that ends in the same line cut short still ends in it */
	an = analyse_log(&t, "nccl.log", RETRY RETRY
	    "node-7:40112:40190 [3] NCCL INFO Call to connect retu\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);

	/* but not when the paste goes on after it, nor when its last line
	 * is another one */
	an = analyse_log(&t, "nccl.log", RETRY
	    "node-7:40112:40190 [3] NCCL INFO Call to connect retu\n"
	    "node-7:40112:40190 [3] NCCL INFO Connected all rings\n");
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);
	an = analyse_log(&t, "nccl.log", RETRY
	    "node-7:40112:40190 [3] NCCL INFO Connected all ri\n");
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);

	/* c10d's store connect, warned at each try, the same way */
	an = analyse_log(&t, "agent.log",
	    "[W socket.cpp:601] [c10d] The client socket has failed to connect to "
	    "[trainer-0.svc]:43461 (errno: 113 - No route to host).\n"
	    "[W socket.cpp:601] [c10d] The client socket has failed to connect to "
	    "trainer-0.svc:43461 (errno: 113 - No rou\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
}
#undef RETRY

/* A stack dump taken while a run hangs (faulthandler on a timer, py-spy)
 * with a frame in a collective: that rank waits in it. The same frames
 * in the dump faulthandler prints at a crash say where it crashed. */
#define FRAME "[rank1]:  File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/" \
	"distributed_c10d.py\", line 2806 in all_reduce\n"
static void
test_stack_dump_in_collective(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	an = analyse_log(&t, "dump.log",
	    "[rank1]:Timeout (0:05:00)!\n"
	    "[rank1]:Thread 0x00007f2a10c4b740 (most recent call first):\n" FRAME
	    "[rank1]:  File \"/work/train.py\", line 88 in step\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);

	an = analyse_log(&t, "dump.log",
	    "[rank1]:Fatal Python error: Segmentation fault\n"
	    "[rank1]:\n"
	    "[rank1]:Thread 0x00007f2a10c4b740 (most recent call first):\n" FRAME
	    "[rank1]:  File \"/work/train.py\", line 88 in step\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "segfault");
	for (i = 0; i < an->ndiags; i++)
		assert_string_not_equal(an->diags[i].entry->id, "nccl-watchdog-timeout");
	done(&t);
}
#undef FRAME

/* torch_npu's exception line names no rank; the head of its error on
 * the next line names the process's (RANK), for every entry the record's
 * lines are evidence of. */
static void
test_npu_error_names_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "npu.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/work/train.py\", line 40, in <module>\n"
	    "    dist.barrier()\n"
	    "RuntimeError: create_config:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:102 HCCL "
	    "function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
	    "&(comm->hcclComm_)), error code is 7\n"
	    "[ERROR] 2025-02-01-10:00:00 (PID:4410, Device:3, RankID:3) ERR02200 DIST call hccl api "
	    "failed.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	/* the head alone, its reason in CANN words no entry reads: the line
	 * that lends the rank is still an error no entry names, not nothing */
	an = analyse_log(&t, "npu.log",
	    "[ERROR] 2025-02-01-10:00:00 (PID:4410, Device:5, RankID:5) ERR00100 PTA call acl api "
	    "failed\n"
	    "EZ1001: 2025-02-01-10:00:00.120.331 The argument is invalid.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 5);
	assert_string_equal(an->diags[0].entry->id, "unlisted-error");
	done(&t);
}

/* A parent's notice after the fact (sglang's "Received sigquit from a
 * child process"), timed, and a child's untimed CUDA fault before it in
 * the same stream, no rank and no pid on either: the fault is what the
 * notice is about. */
static void
test_notice_gives_way_to_earlier_fault(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/srv/model.py\", line 88, in forward\n"
	    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "[2026-01-05 08:00:03] Received sigquit from a child process. It usually means the "
	    "child failed.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->lineno, 3);
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	done(&t);
}

/* A serving scheduler's logger header names its TP rank and prints the
 * traceback with it: the traceback's exception is that rank's (a group
 * rank, so medium at most), before the parent's notice that a child
 * failed. */
static void
test_header_group_rank_lends_traceback(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "[2026-01-05 08:00:02 TP3] Scheduler hit an exception: Traceback (most recent call "
	    "last):\n"
	    "  File \"/srv/runner.py\", line 88, in capture\n"
	    "    self.model.forward(batch)\n"
	    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
	    "\n"
	    "[2026-01-05 08:00:02 TP1] Scheduler hit an exception: Traceback (most recent call "
	    "last):\n"
	    "  File \"/srv/runner.py\", line 90, in capture\n"
	    "RuntimeError: NCCL communicator was aborted on rank 1.\n"
	    "[2026-01-05 08:00:03] Received sigquit from a child process. It usually means the "
	    "child failed.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_int_equal(an->initiating->lineno, 4);
	assert_string_equal(an->confidence, "medium");
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	done(&t);
}

/* TorchX's "ROLE/REPLICA " before torchrun's --tee "[L]:" (the empty
 * role of its dist.ddp): replica 0 is the first node, L its local rank;
 * thrust's "cudaErrorIllegalAddress: ..." is the CUDA error. */
static void
test_torchx_replica_local_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "torchx.log",
	    "train/0 [0]:step 10 loss 2.1\n"
	    "train/0 [1]:step 10 loss 2.2\n"
	    "train/0 [1]:Traceback (most recent call last):\n"
	    "train/0 [1]:  File \"/app/train.py\", line 40, in <module>\n"
	    "train/0 [1]:RuntimeError: sort_by_key: failed on 1st step: cudaErrorIllegalAddress: "
	    "an illegal memory access was encountered\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	done(&t);
}

/* paddle.distributed.launch names the failed worker by its index on the
 * node and its exit code: SIGKILL is the host's OOM killer's, on the one
 * node the logs show (an assumption the reason states); the launcher's
 * "Container failed !!!" error line is no failure of its own. */
static void
test_paddle_launcher_container(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "launch.log",
	    "LAUNCH INFO 2026-01-05 08:00:01,100 Pod failed\n"
	    "LAUNCH ERROR 2026-01-05 08:00:01,101 Container failed !!!\n"
	    "Container rank 2 status failed cmd ['python', '-u', 'train.py'] code -9 log "
	    "log/workerlog.2\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	assert_int_equal(an->assumed_local, 1);
	assert_string_equal(an->diags[0].entry->id, "host-oom-kill");
	done(&t);
}

/* PyTorch 1.x's blocking wait raised "[Rank N] Caught collective
 * operation timeout: ..." (here cut by a terminal's wrap): a wait, so
 * the agent's "failed (exitcode: 1)" that follows is its end: a hang. */
static void
test_blocking_wait_timeout_is_wait(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "run.log",
	    "RuntimeError: [Rank 1] Caught collective operation timeout: WorkNCCL(SeqNum=6, "
	    "OpType=ALLREDUCE, TensorShape=[1], Tim\n"
	    "eout(ms)=1800000) ran for 1800411 milliseconds before timing out.\n"
	    "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4410 closing "
	    "signal SIGTERM\n"
	    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 "
	    "(pid: 4411) of binary: /usr/bin/python3\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);
}

/* NCCL's connect that failed with this host's network error returns an
 * error at once: the communicator's init failed there, whether or not
 * the paste kept the exception after it; a refused connect it retries
 * says nothing by itself. */
static void
test_connect_host_error_fails(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "nccl.log",
	    "gpu-a:3101:3101 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"
	    "gpu-a:3101:3101 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
	    "169.254.3.1<40123> failed : Software caused connection abort\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	an = analyse_log(&t, "nccl.log",
	    "gpu-a:3101:3101 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"
	    "gpu-a:3101:3101 [0] misc/socket.cc:556 NCCL WARN socketPollConnect: Connect to "
	    "10.0.0.7<40123> failed : Connection refused\n"
	    "gpu-a:3101:3101 [0] NCCL INFO Init COMPLETE\n");
	assert_null(an->initiating);
	done(&t);
}

/* The heartbeat monitor's "should dump" check on a store that is gone:
 * its server exited first. Fallout of the run's end, no cause shown:
 * never healthy, never a rank's failure. */
static void
test_store_gone_heartbeat_is_teardown(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "run.log",
	    "[rank3]:[W1201 10:00:41.929037914 ProcessGroupNCCL.cpp:1771] [PG ID 0 PG GUID 0 Rank 3] "
	    "Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut "
	    "down too early), with error: Connection reset by peer\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_null(an->initiating);
	assert_int_equal(an->stopped, 1);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
}

/* A paste that ends inside a line: the start of a signature's match that
 * no line finishes is read as that signature (no facts from the part
 * missing); the same words with the log going on are not. */
static void
test_last_line_cut_short(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	static const char *const head =
	    "[rank3]: Traceback (most recent call last):\n"
	    "[rank3]:   File \"/app/train.py\", line 30, in main\n"
	    "[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator "
	    "and retrieving ncclUniqueId fr";
	char buf[1024];

	(void)state;
	snprintf(buf, sizeof buf, "%s\n", head);
	an = analyse_log(&t, "run.log", buf);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	snprintf(buf, sizeof buf, "%s\n[rank3]: step 5 loss 2.0\n", head);
	an = analyse_log(&t, "run.log", buf);
	assert_true(an->ndiags == 0 || strcmp(an->diags[0].entry->id, "nccl-bootstrap-failure") != 0);
	done(&t);
}

/* torchrun's summary names the worker that exited, not why: the worker's
 * own words, passed through with no prefix before it, say why; the rank
 * is still the summary's. */
static void
test_launcher_report_explained(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "run.log",
	    "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/"
	    "distributed/c10d/ProcessGroupNCCL.cpp:1287, invalid usage, NCCL version 2.17.1\n"
	    "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
	    "Last error:\n"
	    "Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 41000\n"
	    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
	    "============================================================\n"
	    "train.py FAILED\n"
	    "------------------------------------------------------------\n"
	    "Root Cause (first observed failure):\n"
	    "[0]:\n"
	    "  time      : 2026-01-05_08:00:03\n"
	    "  host      : gpu-a01\n"
	    "  rank      : 3 (local_rank: 3)\n"
	    "  exitcode  : 1 (pid: 4410)\n"
	    "  error_file: <N/A>\n"
	    "============================================================\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->init_entry->id, "nccl-duplicate-gpu");
	assert_string_equal(an->diags[0].entry->id, "nccl-duplicate-gpu");
	done(&t);
	/* the agent's line, which gives the worker's error line its rank
	 * (the one failed worker): that line says why, lighter or not */
	an = analyse_log(&t, "run.log",
	    "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, "
	    "unhandled cuda error, NCCL version 2.10.3\n"
	    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 "
	    "(pid: 227) of binary: /usr/bin/python3\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 0);
	assert_string_equal(an->init_entry->id, "nccl-unhandled-cuda-error");
	done(&t);
}

/* A bare exception whose message is on its next lines: the line that
 * names what failed explains it. */
static void
test_bare_exception_gives_way(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "workerlog.0",
	    "Error Message Summary:\n"
	    "ResourceExhaustedError: \n"
	    "\n"
	    "Out of memory error on GPU 0. Cannot allocate 172.000000MB memory on GPU 0, "
	    "23.486572GB memory has been allocated and available memory is only 167.062500MB.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "cuda-oom");
	done(&t);
}

/* A point-to-point work's SeqNum counts sends and receives only (PyTorch
 * 2.4+): a rank timed out in a SEND at SeqNum 0 is not behind ranks
 * timed out in a collective at 29; one timed out in a collective at 20
 * is. */
static void
test_p2p_seq_not_compared(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	char buf[2048];
	static const char *const fmt =
	    "[rank0]:[E923 14:05:28.953368768 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=%s, OpType=%s, NumelIn=720, "
	    "NumelOut=720, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n"
	    "[rank3]:[E923 14:05:28.992395601 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=29, OpType=ALLREDUCE, NumelIn=720, "
	    "NumelOut=720, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n"
	    "[rank5]:[E923 14:05:28.992395601 ProcessGroupNCCL.cpp:607] [Rank 5] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=29, OpType=ALLREDUCE, NumelIn=720, "
	    "NumelOut=720, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n";

	(void)state;
	snprintf(buf, sizeof buf, fmt, "0", "SEND");
	an = analyse_log(&t, "run.log", buf);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_false(tu_cond(an, "timeout-seq-behind")->met);
	done(&t);
	snprintf(buf, sizeof buf, fmt, "20", "ALLREDUCE");
	an = analyse_log(&t, "run.log", buf);
	assert_true(tu_cond(an, "timeout-seq-behind")->met);
	done(&t);
}

/* SeqNums thousands apart are of different groups (older PyTorch prints
 * a group's rank as [Rank N], with no group name: a tensor-parallel
 * group's rank 0 and the data-parallel group's): no rank left behind.
 * A few apart, the rank behind is. */
static void
test_seq_far_apart_not_compared(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	char buf[2048];
	static const char *const fmt =
	    "[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective operation timeout: "
	    "WorkNCCL(SeqNum=96125, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800212 "
	    "milliseconds before timing out.\n"
	    "[E ProcessGroupNCCL.cpp:458] [Rank 7] Watchdog caught collective operation timeout: "
	    "WorkNCCL(SeqNum=%s, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800087 "
	    "milliseconds before timing out.\n";

	(void)state;
	snprintf(buf, sizeof buf, fmt, "64088");
	an = analyse_log(&t, "run.log", buf);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_false(tu_cond(an, "timeout-seq-behind")->met);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);
	snprintf(buf, sizeof buf, fmt, "96124");
	an = analyse_log(&t, "run.log", buf);
	assert_true(tu_cond(an, "timeout-seq-behind")->met);
	done(&t);
}

/* A log that ends inside NCCL's communicator set-up (its INFO lines, no
 * Init COMPLETE after them) on every rank ends in a wait: a hang at init,
 * weakly the bootstrap's, in the set-up's own words. The same lines with
 * the set-up finished and training after them are a healthy start. */
static void
test_log_ends_in_nccl_setup(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	static const char *const setup =
	    "[0]<stdout>:pod-a:21:21 [0] NCCL INFO Bootstrap : Using eth0:10.4.0.10<0>\n"
	    "[1]<stdout>:pod-b:21:21 [0] NCCL INFO Bootstrap : Using eth0:10.4.0.11<0>\n"
	    "[0]<stdout>:pod-a:21:21 [0] NCCL INFO cudaDriverVersion 12060\n"
	    "[1]<stdout>:pod-b:21:21 [0] NCCL INFO cudaDriverVersion 12060\n"
	    "[0]<stdout>:pod-a:21:21 [0] NCCL INFO NCCL version 2.23.4+cuda12.2\n"
	    "[1]<stdout>:pod-b:21:21 [0] NCCL INFO NCCL version 2.23.4+cuda12.2\n";
	char *text;

	(void)state;
	an = analyse_log(&t, "mpi.log", setup);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_non_null(strstr(an->reason, "the last lines of its log"));
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	text = xstrdup_test(setup,
	    "[0]<stdout>:pod-a:21:40 [0] NCCL INFO ncclCommInitRank comm 0x55aa rank 0 nranks 2 "
	    "cudaDev 0 nvmlDev 0 busId 3e000 commId 0x77 - Init COMPLETE\n"
	    "[1]<stdout>:pod-b:21:40 [0] NCCL INFO ncclCommInitRank comm 0x66bb rank 1 nranks 2 "
	    "cudaDev 0 nvmlDev 0 busId 3c000 commId 0x77 - Init COMPLETE\n"
	    "[0]<stdout>:step 1 loss 2.31\n"
	    "[1]<stdout>:step 1 loss 2.29\n");
	an = analyse_log(&t, "mpi.log", text);
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	free(text);
	done(&t);
	/* a rank's file: its set-up lines carry NCCL's host:pid:tid, its
	 * training lines none; the rank went on past the set-up */
	an = analyse_log(&t, "rank3.log",
	    "gpu-b07:5120:5120 [3] NCCL INFO Bootstrap : Using ib0:10.0.7.3<0>\n"
	    "gpu-b07:5120:5190 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0\n"
	    "2024-12-18 19:02:23,607 INFO train.py:196 step 10 | 1107.0 ms/step\n"
	    "2024-12-18 19:03:30,011 INFO train.py:196 step 20 | 1101.2 ms/step\n");
	assert_int_equal(an->verdict, VERDICT_HEALTHY);
	done(&t);
	/* set-up lines of a process that names no rank, then a rank's crash
	 * in the same file: the crash, and no wait at init */
	an = analyse_log(&t, "run.log",
	    "box:4410:4410 [0] NCCL INFO Bootstrap : Using enp1s0:192.168.1.5<0>\n"
	    "box:4410:4410 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
	    "box:4410:4431 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
	    "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_int_equal(an->ndiags, 1);
	assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
	done(&t);
}

/* NCCL's topology detection failing (a PCI path with no way back) is the
 * node's topology, and the "graph/paths.cc:N -> 3" trace after it is its
 * fallout, not the network's; the Python error after both names neither. */
static void
test_topology_error_not_network(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	an = analyse_log(&t, "rank0.log",
	    "vm-7:5512:5530 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>\n"
	    "vm-7:5512:5530 [0] graph/paths.cc:82 NCCL WARN Failed to find reverse path from "
	    "remNode 0/c1000 nlinks 2 to node 0/a1000\n"
	    "vm-7:5512:5530 [0] NCCL INFO graph/paths.cc:611 -> 3\n"
	    "vm-7:5512:5530 [0] NCCL INFO init.cc:1250 -> 3\n"
	    "vm-7:5512:5530 [0] NCCL INFO group.cc:64 -> 3 [Async thread]\n"
	    "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
	    "internal error - please report this issue to the NCCL developers, NCCL version "
	    "2.20.5\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->lineno, 2);
	assert_string_equal(an->diags[0].entry->id, "nccl-topology-error");
	for (i = 0; i < an->ndiags; i++)
		if (strcmp(an->diags[i].entry->id, "nccl-network-error") == 0) {
			size_t k;

			/* the init.cc trace may stay the network's; the graph/ one not */
			for (k = 0; k < an->diags[i].nevidence; k++)
				assert_int_not_equal(an->diags[i].evidence_events[k]->lineno, 3);
		}
	done(&t);
}

/* A serving engine's word that its scheduler of index N on the node died
 * names the rank, not why; the exception it raises with it is the
 * engine's, no cause of its own. */
static void
test_scheduler_died_names_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/srv/engine.py\", line 1277, in _wait_for_scheduler_ready\n"
	    "    raise _scheduler_died_error(i, scheduler_procs[i])\n"
	    "RuntimeError: Rank 2 scheduler died during initialization (exit code: -3). If exit "
	    "code is -9 (SIGKILL), a common cause is the OS OOM killer.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	done(&t);
}

/* A worker killed by SIGFPE or SIGILL died in native code, as by SIGSEGV:
 * a native crash of the process mp.spawn numbers, not a Python exception
 * (the spawn's Exception line is the parent's). */
static void
test_spawn_sigfpe_is_native_crash(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "Process group URL: tcp://127.0.0.1:41000\n"
	    "Traceback (most recent call last):\n"
	    "  File \"tools/train.py\", line 88, in <module>\n"
	    "    launch(main, args.gpus)\n"
	    "  File \"/opt/lib/torch/multiprocessing/spawn.py\", line 107, in join\n"
	    "    (error_index, name)\n"
	    "Exception: process 3 terminated with signal SIGILL\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->diags[0].entry->id, "segfault");
	done(&t);
}

/* Lightning's "Initializing distributed" as the last lines of a log: the
 * processes stopped in the rendezvous (a hang at init); the same lines
 * followed by "All distributed processes registered" and training are a
 * healthy start. */
static void
test_lightning_init_at_end(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	static const char *const init =
	    "GPU available: True (cuda), used: True\n"
	    "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
	    "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4\n"
	    "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]\n"
	    "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4\n";
	char *text;

	(void)state;
	an = analyse_log(&t, "train.log", init);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
	text = xstrdup_test(init,
	    "----------------------------------------------------------------\n"
	    "distributed_backend=nccl\n"
	    "All distributed processes registered. Starting with 4 processes\n"
	    "----------------------------------------------------------------\n"
	    "Epoch 0:  10%|#         | 10/100 [00:05<00:45,  2.00it/s, loss=2.31]\n");
	an = analyse_log(&t, "train.log", text);
	assert_int_not_equal(an->verdict, VERDICT_HANG);
	free(text);
	done(&t);
}

/* PyTorch 1.x's TCPStore raised the bare errno text when MASTER_PORT was
 * taken: a rendezvous failure, not just some exception. */
static void
test_store_port_taken(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/opt/lib/torch/distributed/rendezvous.py\", line 143, in _env_rendezvous_handler\n"
	    "    store = TCPStore(master_addr, master_port, world_size, start_daemon)\n"
	    "RuntimeError: Address already in use\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
}

/* Open MPI's MPI_ERRORS_ARE_FATAL banner names the process that raised
 * the error on its second line, [jobid,vpid]: the vpid is the rank of the
 * banner's first line too. */
static void
test_ompi_banner_names_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "job.log",
	    "[node-2:7710] *** An error occurred in MPI_Bcast\n"
	    "[node-2:7710] *** reported by process [2210000897,12]\n"
	    "[node-2:7710] *** on communicator MPI_COMM_WORLD\n"
	    "[node-2:7710] *** MPI_ERR_TRUNCATE: message truncated\n"
	    "[node-2:7710] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n"
	    "[node-2:7710] ***    and potentially your MPI job)\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->lineno, 1);
	assert_int_equal(an->initiating->rank, 12);
	done(&t);
}

/* DeepEP's host-side wait for its peers' token counts, raised as a
 * RuntimeError: a wait in an MoE all-to-all (a hang), no exception of the
 * rank's own. */
static void
test_deepep_cpu_timeout_is_a_wait(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/opt/lib/deep_ep/buffer.py\", line 301, in internode_dispatch\n"
	    "    recv_x, handle = self.runtime.internode_dispatch(x, handle)\n"
	    "RuntimeError: DeepEP error: timeout (dispatch CPU)\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "moe-stage-asymmetry-hang");
	done(&t);
}

/* Every worker's interpreter could not open the script it was given:
 * nothing of the program ran, and the run failed. */
static void
test_script_not_found_is_a_failure(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "launch.log",
	    "W0101 10:00:00.000000 4410 torch/distributed/run.py:793] Setting OMP_NUM_THREADS "
	    "environment variable for each process to be 1 in default\n"
	    "/usr/bin/python3: can't open file '/srv/job/train_dist.py': [Errno 2] No such file "
	    "or directory\n"
	    "/usr/bin/python3: can't open file '/srv/job/train_dist.py': [Errno 2] No such file "
	    "or directory\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	done(&t);
}

/* torch.multiprocessing could not write its shared-memory file: /dev/shm
 * is full (a DataLoader in a container), not the checkpoint disk. */
static void
test_torch_shm_file_not_disk(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "Traceback (most recent call last):\n"
	    "  File \"/usr/lib/python3.10/multiprocessing/queues.py\", line 244, in _feed\n"
	    "    obj = _ForkingPickler.dumps(obj)\n"
	    "RuntimeError: unable to write to file </torch_5120_882211_4>: No space left on "
	    "device (28)\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "nccl-shm-exhausted");
	done(&t);
}

/* text-generation-inference names its shard (a GPU's process) in its
 * shard manager's rank=N field and in its launcher's "Shard N failed to
 * start"; a shard's death by a signal is read by the signal. */
static void
test_tgi_shard_names_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "tgi.log",
	    "2024-05-01T10:00:01.100000Z  INFO shard-manager: text_generation_launcher: Waiting for "
	    "shard to be ready... rank=0\n"
	    "2024-05-01T10:00:01.100000Z  INFO shard-manager: text_generation_launcher: Waiting for "
	    "shard to be ready... rank=3\n"
	    "2024-05-01T10:00:04.200000Z ERROR shard-manager: text_generation_launcher: Shard process "
	    "was signaled to shutdown with signal 7 rank=3\n"
	    "2024-05-01T10:00:04.300000Z ERROR text_generation_launcher: Shard 3 failed to start\n"
	    "Error: ShardCannotStart\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_string_equal(an->diags[0].entry->id, "nccl-shm-exhausted");
	done(&t);
}

/* gloo's bootstrap in its own words: an interface this host does not
 * have (the rank cannot join), and Horovod's gloo rendezvous that timed
 * out waiting for its workers (a wait, whose abort is its end, no native
 * crash of its own). */
static void
test_gloo_bootstrap_words(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "[1,5]<stderr>:terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
	    "[1,5]<stderr>:  what():  [enforce fail at /src/gloo/transport/tcp/device.cc:83] "
	    "ifa != nullptr. Unable to find address for: ens7f1\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 5);
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	an = analyse_log(&t, "worker.log",
	    "terminate called after throwing an instance of 'gloo::IoException'\n"
	    "  what():  [/src/horovod/common/gloo/http_store.cc:57] Wait timeout after 30 seconds "
	    "for key(s): rank_2\n"
	    "*** SIGABRT received at time=1700000000 on cpu 3 ***\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "rendezvous-failure");
	done(&t);
}

/* A paste that ends in a native backtrace without debug info (glibc's
 * backtrace_symbols, as UCX prints it) lost the crash's header: a native
 * crash, weakly; frames with the run going on after them are not one. */
static void
test_backtrace_symbols_at_end(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	static const char *const frames =
	    " 3  /opt/lib/libuct.so.0(uct_tcp_ep_am_bcopy+0x8d) [0x7fc4604d557d]\n"
	    " 4  /opt/lib/libucp.so.0(+0x916e6) [0x7fc4430116e6]\n"
	    " 5  /opt/lib/libucp.so.0(ucp_worker_progress+0x7a) [0x7fc442fe8b7a]\n";
	char *text;

	(void)state;
	an = analyse_log(&t, "worker.log", frames);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "segfault");
	done(&t);
	text = xstrdup_test(frames,
	    "2024-05-01 10:00:00,000 INFO step 10 loss 2.31\n"
	    "2024-05-01 10:00:05,000 INFO step 20 loss 2.20\n");
	an = analyse_log(&t, "worker.log", text);
	assert_int_not_equal(an->verdict, VERDICT_FAILURE);
	free(text);
	done(&t);
}

/* mpirun's banner that a process of the job exited non-zero is a failure
 * even where the paste lost the block that says which process: never a
 * healthy run. */
static void
test_mpirun_abort_banner(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "job.log",
	    "starting worker\n"
	    "starting worker\n"
	    "--------------------------------------------------------------------------\n"
	    "Primary job  terminated normally, but 1 process returned\n"
	    "a non-zero exit code. Per user-direction, the job has been aborted.\n"
	    "--------------------------------------------------------------------------\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	done(&t);
}

/* The run establishes its world (NCCL's communicator of 8) and half of it
 * wrote, every one of them timed out: the four ranks above the highest
 * that wrote are missing as the ranks below it would be, suspects; and as
 * they tie, no one of them is called likelier than the others. */
static void
test_missing_ranks_above_highest(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		buf_printf(&b, "[rank%zu]:node-a:10%zu:10%zu [%zu] NCCL INFO comm 0x55a%zu rank %zu "
		    "nranks 8 cudaDev %zu nvmlDev %zu busId 1000 commId 0x77 - Init COMPLETE\n"
		    "[rank%zu]:[E1105 10:30:00.123456789 ProcessGroupNCCL.cpp:632] [Rank %zu] "
		    "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, "
		    "OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=1800000) ran for "
		    "1800012 milliseconds before timing out.\n", i, i, i, i, i, i, i, i, i, i);
	an = analyse_log(&t, "job.log", b.s);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_int_equal(an->world, 8);
	assert_int_equal(an->nsuspects, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(an->suspects[i].rank, (int)(4 + i));
	assert_non_null(strstr(an->reason, "ranks 4-7 tie as the likeliest culprits"));
	assert_string_equal(an->confidence, "low");
	done(&t);
	buf_release(&b);
}

/* oneCCL's finalize failing to remove its keys (the store's process
 * gone) after a worker died is that end's fallout: the dead worker is
 * the failure, no bootstrap problem. */
static void
test_oneccl_finalize_is_fallout(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "(EngineCore pid=113) ERROR 09-04 19:19:06 [multiproc_executor.py:283] Worker proc "
	    "VllmWorker-1 died unexpectedly, shutting down executor.\n"
	    "(Worker_TP0 pid=190) INFO 09-04 19:19:07 [multiproc_executor.py:872] WorkerProc "
	    "shutting down.\n"
	    "2026:09:04-19:19:08:(  190) |CCL_ERROR| internal_kvs_server.hpp:70 put: read/write "
	    "error: Broken pipe\n"
	    "2026:09:04-19:19:08:(  190) |CCL_ERROR| internal_kvs.cpp:94 kvs_remove_name_key: "
	    "client: remove_key\n"
	    "2026:09:04-19:19:08:(  190) |CCL_ERROR| pmi_resizable_simple_internal.cpp:197 "
	    "pmrt_finalize: failed to remove info\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	done(&t);
}

/* A message cut at a fixed column (104 here) inside the words its
 * signature is looked for by ("... stuck for 600 second" + "s without
 * making progress"): two lines of one length show the column, and the
 * halves are read as one line. The watchdog got stuck, so srun's
 * "Aborted" is the hang's end (its heartbeat monitor's abort), no crash. */
static void
test_line_cut_at_column(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "slurm.out",
	    "[rank6]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 6] ProcessGroupNCCL's watchdog got "
	    "stuck for 600 second\n"
	    "s without making progress in monitoring enqueued collectives. This typically "
	    "indicates a NCCL/CUDA API h\n"
	    "ang blocking the watchdog, and could be triggered by another thread holding the "
	    "GIL.\n"
	    "srun: error: gpu-b08: task 6: Aborted\n"
	    "srun: Terminating StepId=10840010.0\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_string_equal(an->diags[0].entry->id, "watchdog-heartbeat-abort");
	done(&t);
}

/* Open MPI's crash handler prints "[host:pid] " before each line of its
 * block: the process whose NCCL init line names its rank is that rank, or
 * the one mpirun's "process rank N with PID P" names. */
static void
test_ompi_crash_block_by_process(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "mpirun.log",
	    "node7:4409:4409 [0] NCCL INFO ncclCommInitRank comm 0x5560a1 rank 0 nranks 2 cudaDev 0 "
	    "nvmlDev 0 busId 1b000 commId 0x1f - Init COMPLETE\n"
	    "node7:4410:4410 [1] NCCL INFO ncclCommInitRank comm 0x5570b2 rank 1 nranks 2 cudaDev 1 "
	    "nvmlDev 1 busId 2a000 commId 0x1f - Init COMPLETE\n"
	    "[node7:4410] *** Process received signal ***\n"
	    "[node7:4410] Signal: Segmentation fault (11)\n"
	    "[node7:4410] Signal code: Address not mapped (1)\n"
	    "[node7:4410] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x43090)[0x7fbffe22e090]\n"
	    "[node7:4410] *** End of error message ***\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 1);
	assert_string_equal(an->diags[0].entry->id, "segfault");
	done(&t);
	/* no NCCL lines: mpirun's summary names the rank and its pid */
	an = analyse_log(&t, "mpirun.log",
	    "[a1eb0914a5e2:01167] *** Process received signal ***\n"
	    "[a1eb0914a5e2:01167] Signal: Segmentation fault (11)\n"
	    "[a1eb0914a5e2:01167] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x42520)[0x7f54]\n"
	    "[a1eb0914a5e2:01167] *** End of error message ***\n"
	    "mpirun noticed that process rank 3 with PID 1167 on node 10.10.21.2 exited on "
	    "signal 11 (Segmentation fault).\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 3);
	assert_int_equal(an->initiating->lineno, 2);
	done(&t);
}

/* A traceback a platform printed with its time before each line, cut
 * inside its last frame: its frames' indentation keeps the record going,
 * so the log ends inside it (a failure, cut short), not healthy. */
static void
test_timed_traceback_cut(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "job.log",
	    "[2024-07-08 15:29:40] step 12 loss 3.11\n"
	    "[2024-07-08 15:29:47] Traceback (most recent call last):\n"
	    "[2024-07-08 15:29:47]   File \"/srv/data.py\", line 226, in load_streams\n"
	    "[2024-07-08 15:29:47]     ds = StreamingDataset(streams=streams)\n"
	    "[2024-07-08 15:29:47]   File \"/usr/lib/python3.10/multiprocessing/shared_memory.py\", "
	    "line 104, in __init__\n"
	    "[2024-07-08 15:29:47]     self._fd = _posixshmem.\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->lineno, 2);
	done(&t);
}

/* A serving engine's bare TimeoutError (its shared-memory broadcast ran
 * out of time waiting for its workers) is a wait, not a failure; the
 * traceback chained to it ("The above exception was the direct cause
 * ..."), cut short by the end of the paste, adds nothing: a hang. The
 * same chain after a real error stays that error's failure. */
static void
test_bare_timeout_chain_cut(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	static const char *const head =
	    "(EngineCore pid=71) INFO 03-02 10:00:00 [shm_broadcast.py:600] No available shared "
	    "memory broadcast block found in 60 seconds. This typically happens when some "
	    "processes are hanging.\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900] Traceback (most recent call "
	    "last):\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900]   File \"/srv/engine/shm.py\", "
	    "line 640, in acquire_read\n";
	static const char *const tail =
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900]\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900] The above exception was the "
	    "direct cause of the following exception:\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900]\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900] Traceback (most recent call "
	    "last):\n"
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900]   File \"/srv/engine/core.py\", "
	    "line 959, in run_engine_core\n";
	char text[2048];

	(void)state;
	snprintf(text, sizeof text, "%s%s%s", head,
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900] TimeoutError\n", tail);
	an = analyse_log(&t, "engine.log", text);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_null(an->initiating);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "collective-desync");
	done(&t);
	snprintf(text, sizeof text, "%s%s%s", head,
	    "(EngineCore pid=71) ERROR 03-02 10:01:00 [core.py:900] ValueError: bad block\n", tail);
	an = analyse_log(&t, "engine.log", text);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->lineno, 4);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	done(&t);
}

/* A bare Python exception's words that another entry reads: that entry
 * speaks for the line (python-exception is generic), weights aside, with
 * or without a rank or a time. */
static void
test_generic_exception_gives_way(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "worker.log",
	    "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/"
	    "tcp/pair.cc:144] no error\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_string_equal(an->initiating->sig->id, "gloo-full-mesh-failed");
	assert_string_equal(an->diags[0].entry->id, "nccl-bootstrap-failure");
	done(&t);
	an = analyse_log(&t, "worker.log",
	    "[rank2]:[E1104 10:00:00.100000000 ProcessGroupNCCL.cpp:1] step 3\n"
	    "[rank2]: RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling "
	    "`cublasCreate(handle)`\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 2);
	assert_string_equal(an->initiating->sig->entry->id, "cuda-oom");
	assert_string_equal(an->diags[0].entry->id, "cuda-oom");
	done(&t);
}

/* NCCL RAS's report of a communicator whose ranks launched different
 * counts of a collective: a hang; the outliers it lists may be ahead,
 * and only a rank that launched none is named behind. */
static void
test_ras_mismatch_is_hang(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "ras.txt",
	    "#0-0 (5a1c9e0b7d3f2e11) MISMATCH\n"
	    "  Communicator ranks have different AllReduce operation counts\n"
	    "  14 ranks have launched up to operation 812\n"
	    "  2 ranks have launched up to operation 813\n"
	    "  Rank 3 -- GPU 3 managed by process 51003 on node 10.0.3.17\n"
	    "  Rank 9 -- GPU 1 managed by process 61001 on node 10.0.3.18\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "collective-desync");
	assert_int_equal(an->nsuspects, 0);
	done(&t);

	an = analyse_log(&t, "ras.txt",
	    "#0-0 (5a1c9e0b7d3f2e11) MISMATCH\n"
	    "  Communicator ranks have different AllGather operation counts\n"
	    "  15 ranks have launched up to operation 40\n"
	    "  Rank 6 has not launched any operations -- GPU 6 managed by process 51006 on node 10.0.3.17\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 6);
	done(&t);
}

/* nccl-tests under mpirun: each host's failure line, then mpirun's box
 * naming the first process that exited. The hosts' lines are records of
 * their own (none takes mpirun's rank), and the rank it names is no
 * evidence of which process failed first. */
static void
test_hosts_fail_before_launcher_names_rank(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	an = analyse_log(&t, "mpirun.log",
	    "gpu-a07: Test NCCL failure common.cu:1040 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n"
	    " .. gpu-a07 pid 51220: Test failure common.cu:880\n"
	    "gpu-b11: Test NCCL failure common.cu:1040 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n"
	    " .. gpu-b11 pid 40417: Test failure common.cu:880\n"
	    "--------------------------------------------------------------------------\n"
	    "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
	    "the job to be terminated. The first process to do so was:\n"
	    "\n"
	    "  Process name: [[31877,1],97]\n"
	    "  Exit code:    3\n"
	    "--------------------------------------------------------------------------\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 97);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "two processes or more"));
	assert_true(an->ndiags > 1);
	assert_string_equal(an->diags[1].entry->id, "nccl-unhandled-cuda-error");
	assert_true(an->diags[1].nevidence > 0);
	for (i = 0; i < an->diags[1].nevidence; i++)
		assert_true(an->diags[1].evidence_events[i]->rank < 0);
	done(&t);

	/* the same entry's lines (a reason no other entry reads) */
	an = analyse_log(&t, "mpirun.log",
	    "gpu-a07: Test NCCL failure common.cu:1040 'invalid usage (run with NCCL_DEBUG=WARN for details)'\n"
	    "gpu-b11: Test NCCL failure common.cu:1040 'invalid usage (run with NCCL_DEBUG=WARN for details)'\n"
	    "  Process name: [[31877,1],97]\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 97);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "rank-exception");
	for (i = 0; i < an->diags[0].nevidence; i++)
		if (an->diags[0].evidence_events[i] != an->initiating)
			assert_true(an->diags[0].evidence_events[i]->rank < 0);
	done(&t);

	/* the hosts' lines fallout (a system error: the network's), not a
	 * failure of their own: which process went first is not known either */
	an = analyse_log(&t, "mpirun.log",
	    "gpu-a07: Test NCCL failure common.cu:1040 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '\n"
	    "gpu-b11: Test NCCL failure common.cu:1040 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '\n"
	    "  Process name: [[31877,1],97]\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 97);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "reported fallout before its line"));
	done(&t);
}

/* NCCL's WARN, on a line with no rank, just before a rank's traceback
 * that the log cuts: the WARN says what failed, and the headline's entry
 * is its (one that is further away, or weighs little, does not). */
static void
test_warn_before_cut_traceback_explains(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "trn-c04:18120:18120 [0] bootstrap.cc:48 NCCL WARN Bootstrap : no socket interface found\n"
	    "trn-c04:18120:18120 [0] NCCL INFO init.cc:84 -> 3\n"
	    "[rank0]: Traceback (most recent call last):\n"
	    "[rank0]:   File \"/srv/train.py\", line 88, in <module>\n");
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 0);
	assert_string_equal(an->init_entry->id, "nccl-bootstrap-failure");
	done(&t);

	an = analyse_log(&t, "train.log",
	    "trn-c04:18120:18120 [0] bootstrap.cc:48 NCCL WARN Bootstrap : no socket interface found\n"
	    "step 1 | loss 2.9\nstep 2 | loss 2.8\nstep 3 | loss 2.8\nstep 4 | loss 2.7\n"
	    "step 5 | loss 2.7\nstep 6 | loss 2.6\nstep 7 | loss 2.6\nstep 8 | loss 2.5\n"
	    "step 9 | loss 2.5\nstep 10 | loss 2.4\nstep 11 | loss 2.4\nstep 12 | loss 2.3\n"
	    "step 13 | loss 2.3\nstep 14 | loss 2.2\nstep 15 | loss 2.2\nstep 16 | loss 2.1\n"
	    "step 17 | loss 2.1\nstep 18 | loss 2.0\nstep 19 | loss 2.0\nstep 20 | loss 1.9\n"
	    "step 21 | loss 1.9\nstep 22 | loss 1.8\nstep 23 | loss 1.8\nstep 24 | loss 1.7\n"
	    "[rank0]: Traceback (most recent call last):\n");
	assert_non_null(an->initiating);
	assert_string_equal(an->init_entry->id, "rank-exception");
	done(&t);
}

/* A rank's fallout, then its traceback cut by the end of the paste: the
 * traceback is the fallout's, not a failure of its own, and the rank
 * the fallout points at is the suspect. */
static void
test_cut_traceback_after_own_fallout(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "serve.log",
	    "[rank5]:[E0602 10:11:12.426633564 ProcessGroupGloo.cpp:143] Rank 5 successfully "
	    "reached monitoredBarrier, but received errors while waiting for send/recv from "
	    "rank 2. Please check rank 2 logs for faulty rank.\n"
	    "[rank5]: Traceback (most recent call last):\n"
	    "[rank5]:   File \"/srv/serve.py\", line 41, in <module>\n");
	assert_null(an->initiating);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 2);
	done(&t);
}

/* A log whose only fallout is its launcher ending the ranks: a failure
 * of teardown only (a worker's failure not shown, or a stop from
 * outside), not a hang: no rank waited. With a wait it is a hang. */
static void
test_teardown_only_is_failure(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "agent.log",
	    "{'loss': 1.41, 'epoch': 2.57}\n"
	    "W1215 23:37:18.348000 7625 torch/distributed/elastic/agent/server/api.py:723] "
	    "Received 1 death signal, shutting down workers\n"
	    "W1215 23:37:18.351000 7625 torch/distributed/elastic/multiprocessing/api.py:900] "
	    "Sending process 7626 closing signal SIGHUP\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_null(an->initiating);
	assert_true(an->stopped);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "stopped from outside"));
	done(&t);

	an = analyse_log(&t, "agent.log",
	    "[rank1]:[E1215 23:30:00.000000000 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
	    "collective operation timeout: WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=2, "
	    "NumelOut=2, Timeout(ms)=600000) ran for 600008 milliseconds before timing out.\n"
	    "W1215 23:37:18.351000 7625 torch/distributed/elastic/multiprocessing/api.py:900] "
	    "Sending process 7626 closing signal SIGTERM\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_false(an->stopped);
	done(&t);

	/* a rank silent long before the others: a suspect, for its silence
	 * against theirs (the launcher's teardown, which ends every rank
	 * after a failure, dates nothing) */
	an = analyse_log(&t, "agent.log",
	    "[rank0]:[W1215 23:00:00.000000000 train.py:1] step 10\n"
	    "[rank1]:[W1215 23:00:00.000000000 train.py:1] step 10\n"
	    "[rank0]:[W1215 23:20:00.000000000 train.py:1] step 11\n"
	    "W1215 23:37:18.351000 7625 torch/distributed/elastic/multiprocessing/api.py:900] "
	    "Sending process 7626 closing signal SIGTERM\n");
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 1);
	assert_null(strstr(an->suspects[0].reason, "teardown"));
	assert_null(strstr(an->suspects[0].reason, "timeout report"));
	done(&t);
}

static void
test_srun_task_is_rank_without_agents(void **state)
{
	struct tcase t = { tu_tmpdir(), NULL };
	const struct analysis *an;

	(void)state;
	TU_WRITE(t.dir, "slurm-4411.out",
	    "srun: error: gpu-b07: task 5: Exited with exit code 1\n"
	    "srun: launch/slurm: _step_signal: Terminating StepId=4411.0\n"
	    "srun: error: gpu-b07: tasks 0-4,6-7: Killed\n");
	an = analyse_dir(&t);
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_non_null(an->initiating);
	assert_int_equal(an->initiating->rank, 5);
	assert_int_equal(an->initiating->via, VIA_TASK);
	assert_string_equal(an->confidence, "low");	/* it says not why */
	assert_non_null(strstr(an->reason, "task number"));
	done(&t);

	/* an agent's line in the run: task 1 is a node, not rank 1 */
	an = analyse_log(&t, "slurm-4412.out",
	    "E0101 10:00:00.000000 77 torch/distributed/elastic/multiprocessing/api.py:874] "
	    "failed (exitcode: 1) local_rank: 3 (pid: 4411) of binary: /usr/bin/python3\n"
	    "srun: error: gpu-b08: task 1: Exited with exit code 1\n");
	assert_non_null(an->initiating);
	assert_int_not_equal(an->initiating->via, VIA_TASK);
	assert_int_not_equal(an->initiating->rank, 1);
	done(&t);
}

/* An exception Python printed as ignored (a __del__ at shutdown) ended no
 * process: the run's only other fallout is a timeout, so a hang; the same
 * traceback uncaught is the rank's failure. */
static void
test_ignored_exception_is_no_failure(void **state)
{
	static const char *const head[] = {
		"Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f0>\n",
		"",
	};
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	char log[2048];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		snprintf(log, sizeof log, "%s"
		    "Traceback (most recent call last):\n"
		    "  File \"/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", "
		    "line 1477, in __del__\n"
		    "    self._shutdown_workers()\n"
		    "TimeoutError: Operation timed out!\n"
		    "[rank1]:[E0516 06:09:16.295666043 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught "
		    "collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=8, "
		    "NumelOut=8, Timeout(ms)=600000) ran for 600041 milliseconds before timing out.\n",
		    head[i]);
		an = analyse_log(&t, "train.log", log);
		if (i == 0) {
			assert_int_equal(an->verdict, VERDICT_HANG);
			assert_null(an->initiating);
		} else {
			assert_int_equal(an->verdict, VERDICT_FAILURE);
			assert_non_null(an->initiating);
			assert_string_equal(an->initiating->sig->entry->id, "rank-exception");
		}
		done(&t);
	}
}

/* A generic error line (torch_npu's RuntimeError naming only the call and
 * its code) whose record goes on to a timeout reports that timeout: a
 * hang. When its record goes on to a fault of its own, a failure. */
static void
test_generic_error_reports_its_wait(void **state)
{
	static const char *const reason[] = {
		"(train pid=4410) EI0002: [PID: 4410] 2025-06-25-10:45:23.586.187 The wait execution "
		"of the Notify register times out. Reason: The Notify register has not received the "
		"Notify record from remote rank: [unknown].\n",
		"(train pid=4410) EZ9999: [PID: 4410] 2025-06-25-10:45:23.381.401 The error from "
		"device(chipId:3, dieId:0), serial number is 2, there is an aivec error exception, "
		"core id is 5, error code = 0\n",
	};
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	char log[2048];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		snprintf(log, sizeof log,
		    "(train pid=4410) RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/"
		    "NPUStream.cpp:363 NPU error, error code is 107020\n"
		    "(train pid=4410) [ERROR] 2025-06-25-10:45:23 (PID:4410, Device:0, RankID:3) "
		    "ERR00100 PTA call acl api failed\n"
		    "(train pid=4410) EI9999: Inner Error!\n"
		    "%s", reason[i]);
		an = analyse_log(&t, "train.log", log);
		assert_true(an->ndiags > 0);
		if (i == 0) {
			assert_int_equal(an->verdict, VERDICT_HANG);
			assert_null(an->initiating);
			assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
		} else {
			assert_int_equal(an->verdict, VERDICT_FAILURE);
			assert_string_equal(an->diags[0].entry->id, "cuda-illegal-memory-access");
		}
		done(&t);
	}
	/* older releases' words for it, then the device's report of the
	 * timeout */
	an = analyse_log(&t, "serve.log",
	    "2025-02-03 11:40:00,118 - engine - ERROR - model_agent.py:410 - Rank[1] failed.\n"
	    "Traceback (most recent call last):\n"
	    "  File \"/srv/engine/agent.py\", line 380, in _loop\n"
	    "RuntimeError: ACL stream synchronize failed.\n"
	    "EI9999: Inner Error!\n"
	    "EI9999: 2025-02-03-11:40:00.201.318  The error from device(chipId:1, dieId:0), serial "
	    "number is 4, hccl fftsplus task timeout occurred during task execution, stream_id:2, "
	    "sq_id:2, task_id:1207, stuck notify num:1, timeout:30min(default).\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);
	/* the exception names its process by pid only (Ray's prefix), the
	 * CANN warning after it by the same pid and a rank: one process */
	an = analyse_log(&t, "serve.log",
	    "(RayWorkerWrapper pid=5120, ip=10.2.0.7) ERROR 03-05 11:20:41 [worker_base.py:600] "
	    "RuntimeError: ACL stream synchronize failed, error code:507048\n"
	    "(RayWorkerWrapper pid=5121, ip=10.2.0.7) INFO 03-05 11:20:41 [utils.py:100] still "
	    "here\n"
	    "(RayWorkerWrapper pid=5120, ip=10.2.0.7) [rank9]:[W305 11:20:41.118204310 "
	    "compiler_depend.ts:57] Warning: EI0002: [PID: 5120] 2025-03-05-11:20:41.101.377\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);
}

/* Two workers' SIGBUS (UCX's "[host:pid:...]"), then torchrun's line for
 * the worker it saw fail, another pid: neither line is that worker's, and
 * which process failed first is not known. */
static void
test_launcher_worker_of_another_pid(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	size_t i;

	(void)state;
	an = analyse_log(&t, "train.log",
	    "c0ffee01:5283:5699 [7] NCCL INFO 24 coll channels, 0 nvls channels, 32 p2p channels\n"
	    "[c0ffee01:5283 :0:5704] Caught signal 7 (Bus error: nonexistent physical address)\n"
	    "c0ffee01:5279:5701 [4] NCCL INFO Connected all trees\n"
	    "[c0ffee01:5279 :0:5710] Caught signal 7 (Bus error: nonexistent physical address)\n"
	    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) "
	    "local_rank: 0 (pid: 5275) of binary: /usr/bin/python\n");
	assert_int_equal(an->verdict, VERDICT_FAILURE);
	assert_string_equal(an->confidence, "low");
	assert_non_null(strstr(an->reason, "two processes or more"));
	for (i = 0; i < t.r->incident->nevents; i++) {
		const struct event *ev = t.r->incident->events[i];

		if (ev->pid == 5283 || ev->pid == 5279)
			assert_int_equal(ev->rank, -1);
	}
	done(&t);
}

/* Flight Recorder's analyzer on a hung run's dumps: the culprit it names
 * is the suspect of a hang, and its finding alone makes the entry a
 * diagnosis (defines: no required condition needed). */
static void
test_flight_recorder_culprit(void **state)
{
	struct tcase t = { NULL, NULL };
	const struct analysis *an;

	(void)state;
	an = analyse_log(&t, "fr_trace.txt.log",
	    "Collective 39 at entry 38 errors\n"
	    "group info: 0:default_pg\n"
	    "collective: nccl:all_reduce\n"
	    "input sizes: [[1025]]\n"
	    "world size: 16\n"
	    "collective state: scheduled\n"
	    "error msg: Culprit rank 11; Error type: SIZE_OR_SYNTAX_MISMATCH, Expected input "
	    "sizes: '[[1025]]' does not match found input sizes: '[[262144]]'\n");
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->nsuspects > 0);
	assert_int_equal(an->suspects[0].rank, 11);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "collective-mismatch");
	done(&t);
}

/* A paste that is only the watchdog's C++ frames (its line lost): the
 * frames a log ends in say a collective timed out, a hang; after the
 * timeout's own line they add no event. */
static void
test_watchdog_frames_alone(void **state)
{
	static const char frames[] =
	    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f00 in "
	    "/opt/torch/lib/libc10.so)\n"
	    "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::"
	    "duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x7f01 in /opt/torch/lib/"
	    "libtorch_cuda.so)\n"
	    "frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 (0x7f02 in "
	    "/opt/torch/lib/libtorch_cuda.so)\n"
	    "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/"
	    "ProcessGroupNCCL.cpp:1521 (most recent call first):\n"
	    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f00 in "
	    "/opt/torch/lib/libc10.so)\n";
	struct tcase t = { NULL, NULL };
	const struct analysis *an;
	char log[4096];
	size_t i;

	(void)state;
	an = analyse_log(&t, "frames.log", frames);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);

	snprintf(log, sizeof log, "[rank1]:[E0516 06:09:16.295666043 ProcessGroupNCCL.cpp:629] "
	    "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, "
	    "OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600041 "
	    "milliseconds before timing out.\n%s", frames);
	an = analyse_log(&t, "rank1.log", log);
	assert_int_equal(an->verdict, VERDICT_HANG);
	for (i = 0; i < t.r->incident->nevents; i++)
		assert_string_not_equal(t.r->incident->events[i]->sig->id, "watchdog-timeout-frame");
	done(&t);

	/* the timeout's line cut short: an error line no entry reads, which
	 * says nothing the frames do not */
	snprintf(log, sizeof log, "[rank1]:[E0516 06:09:16.295666043 ProcessGroupNCCL.cpp:629] "
	    "[Rank 1] Watchdog caught collective ope\n%s", frames);
	an = analyse_log(&t, "rank1.log", log);
	assert_int_equal(an->verdict, VERDICT_HANG);
	assert_true(an->ndiags > 0);
	assert_string_equal(an->diags[0].entry->id, "nccl-watchdog-timeout");
	done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agent_local_rank_one_node),
		cmocka_unit_test(test_timeout_numel_differs),
		cmocka_unit_test(test_error_after_own_timeout_is_fallout),
		cmocka_unit_test(test_fallout_only_failure),
		cmocka_unit_test(test_serving_worker_named_dead),
		cmocka_unit_test(test_untimed_error_before_timed_notice),
		cmocka_unit_test(test_failed_worker_owns_unranked_error),
		cmocka_unit_test(test_bootstrap_duplicate_rank),
		cmocka_unit_test(test_group_fact_never_printed),
		cmocka_unit_test(test_lone_troubled_rank_suspect),
		cmocka_unit_test(test_waiting_rank_owns_no_crash),
		cmocka_unit_test(test_launcher_child_failed_is_failure),
		cmocka_unit_test(test_process_init_line_names_rank),
		cmocka_unit_test(test_agent_pid_maps_to_rank),
		cmocka_unit_test(test_agent_local_rank_many_nodes_stays_unranked),
		cmocka_unit_test(test_record_names_its_rank_later),
		cmocka_unit_test(test_no_invented_ranks),
		cmocka_unit_test(test_rank0_alone_is_no_world),
		cmocka_unit_test(test_healthy_needs_steps),
		cmocka_unit_test(test_world_from_nranks),
		cmocka_unit_test(test_world_from_combined_steps),
		cmocka_unit_test(test_nodes_from_counted_lines),
		cmocka_unit_test(test_high_rank_costs_one_rank),
		cmocka_unit_test(test_no_times_still_judged),
		cmocka_unit_test(test_hard_wrapped_record),
		cmocka_unit_test(test_glued_after_progress_bar),
		cmocka_unit_test(test_hard_wrap_second_half_is_context),
		cmocka_unit_test(test_hard_wrap_words_in_second_half),
		cmocka_unit_test(test_pasted_excerpts),
		cmocka_unit_test(test_symptom_is_no_rival),
		cmocka_unit_test(test_dump_signal_points_at_rank),
		cmocka_unit_test(test_spawn_header_names_following_lines),
		cmocka_unit_test(test_barrier_names_ranks),
		cmocka_unit_test(test_launcher_time_ties_untimed_error),
		cmocka_unit_test(test_nccl_system_error_is_fallout),
		cmocka_unit_test(test_unread_fallout_exception),
		cmocka_unit_test(test_init_lines_summarised),
		cmocka_unit_test(test_traceback_cut_at_end),
		cmocka_unit_test(test_traceback_that_goes_on_is_not_cut),
		cmocka_unit_test(test_traceback_cut_gives_way),
		cmocka_unit_test(test_traceback_cut_after_own_wait),
		cmocka_unit_test(test_last_error_explains),
		cmocka_unit_test(test_traceback_cut_beside_fallout),
		cmocka_unit_test(test_unranked_failure_names_its_host),
		cmocka_unit_test(test_specific_line_outweighs_generic),
		cmocka_unit_test(test_abort_is_last_resort),
		cmocka_unit_test(test_initiating_line_never_outweighed),
		cmocka_unit_test(test_horovod_stall_names_ranks),
		cmocka_unit_test(test_log_ends_in_barrier_wait),
		cmocka_unit_test(test_srun_task_is_rank_without_agents),
		cmocka_unit_test(test_spliced_records),
		cmocka_unit_test(test_connection_lines_name_process),
		cmocka_unit_test(test_store_wait_before_worker_exception),
		cmocka_unit_test(test_log_ends_in_connect_retry),
		cmocka_unit_test(test_stack_dump_in_collective),
		cmocka_unit_test(test_npu_error_names_rank),
		cmocka_unit_test(test_notice_gives_way_to_earlier_fault),
		cmocka_unit_test(test_bare_timeout_chain_cut),
		cmocka_unit_test(test_generic_exception_gives_way),
		cmocka_unit_test(test_ras_mismatch_is_hang),
		cmocka_unit_test(test_hosts_fail_before_launcher_names_rank),
		cmocka_unit_test(test_warn_before_cut_traceback_explains),
		cmocka_unit_test(test_cut_traceback_after_own_fallout),
		cmocka_unit_test(test_teardown_only_is_failure),
		cmocka_unit_test(test_ignored_exception_is_no_failure),
		cmocka_unit_test(test_generic_error_reports_its_wait),
		cmocka_unit_test(test_launcher_worker_of_another_pid),
		cmocka_unit_test(test_flight_recorder_culprit),
		cmocka_unit_test(test_watchdog_frames_alone),
		cmocka_unit_test(test_header_group_rank_lends_traceback),
		cmocka_unit_test(test_torchx_replica_local_rank),
		cmocka_unit_test(test_paddle_launcher_container),
		cmocka_unit_test(test_blocking_wait_timeout_is_wait),
		cmocka_unit_test(test_connect_host_error_fails),
		cmocka_unit_test(test_store_gone_heartbeat_is_teardown),
		cmocka_unit_test(test_last_line_cut_short),
		cmocka_unit_test(test_launcher_report_explained),
		cmocka_unit_test(test_bare_exception_gives_way),
		cmocka_unit_test(test_p2p_seq_not_compared),
		cmocka_unit_test(test_log_ends_in_nccl_setup),
		cmocka_unit_test(test_topology_error_not_network),
		cmocka_unit_test(test_scheduler_died_names_rank),
		cmocka_unit_test(test_oneccl_finalize_is_fallout),
		cmocka_unit_test(test_spawn_sigfpe_is_native_crash),
		cmocka_unit_test(test_lightning_init_at_end),
		cmocka_unit_test(test_store_port_taken),
		cmocka_unit_test(test_ompi_banner_names_rank),
		cmocka_unit_test(test_deepep_cpu_timeout_is_a_wait),
		cmocka_unit_test(test_script_not_found_is_a_failure),
		cmocka_unit_test(test_torch_shm_file_not_disk),
		cmocka_unit_test(test_tgi_shard_names_rank),
		cmocka_unit_test(test_gloo_bootstrap_words),
		cmocka_unit_test(test_backtrace_symbols_at_end),
		cmocka_unit_test(test_mpirun_abort_banner),
		cmocka_unit_test(test_missing_ranks_above_highest),
		cmocka_unit_test(test_line_cut_at_column),
		cmocka_unit_test(test_seq_far_apart_not_compared),
		cmocka_unit_test(test_ompi_crash_block_by_process),
		cmocka_unit_test(test_timed_traceback_cut),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
