/* test_line.c: prefixes, headers, ranks and times of real line shapes. */
#include "config.h"

#include "testutil.h"

#include "line.h"

static struct linestate st;
static struct line ln;

static void
parse(const char *s)
{
	line_parse(&st, s, strlen(s), &ln);
}

static void
msg_is(const char *want)
{
	assert_int_equal(ln.msglen, strlen(want));
	assert_memory_equal(ln.msg, want, ln.msglen);
}

/* The parsed line's date. */
static void
day_is(int year, int mon, int mday)
{
	struct civil c;

	assert_true(ln.ts.flags & STAMP_TIME);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, year);
	assert_int_equal(c.mon, mon);
	assert_int_equal(c.mday, mday);
}

static int
reset(void **state)
{
	(void)state;
	/* anchor: 2024-06-18 00:00 (a dated line of the same file) */
	linestate_init(&st, -1, -1, 19892LL * 86400);
	st.anchor_dated = 1;
	return 0;
}

static void
test_degenerate(void **state)
{
	(void)state;
	parse("");
	assert_int_equal(ln.rank, -1);
	assert_true(ln.flags & LINE_BLANK);
	parse("[");
	msg_is("[");
	parse("[rank");
	msg_is("[rank");
	parse("[rank3]");
	msg_is("[rank3]");
	parse("12:");
	msg_is("12:");
	line_parse(&st, "[rank12345678901234567890]:x", 29, &ln);
	assert_int_equal(ln.rank, -1);
}

/* Numbers are read up to their limit and no further, whether they are
 * shorter or longer than 8 bytes or end the line: a prefix with one digit
 * too many is no prefix. */
static void
test_number_limits(void **state)
{
	static const struct {
		const char	*line;
		int		 rank;	/* -2: not this line's point */
		int		 label;
		long		 pid;
	} t[] = {
		{ "[rank1234567]: x", 1234567, -1, -1 },
		{ "[rank12345678]: x", -1, -1, -1 },
		{ "123456: the task's line", -2, 123456, -1 },
		{ "1234567: the task's line", -2, -1, -1 },
		{ "7: x", -2, 7, -1 },
		{ "0007: padded", -2, 7, -1 },
		{ "[80746] [rank3]:[W1218 20:27:21.426415540 a.cpp:1] x", 3, -1, -1 },
		{ "[1,23]<stderr>: x", -2, 23, -1 },
		{ "[12345678,2]<stdout>: y", -2, 2, -1 },
		{ "[1234567]<stderr>: y", -2, 1234567, -1 },
		{ "[12345678]<stderr>: y", -2, -1, -1 },
		{ "gpu-a000:1234567890:42 [5] NCCL INFO x", -1, -1, 1234567890 },
		{ "gpu-a000:12345678901:42 [5] NCCL INFO x", -1, -1, -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof *t; i++) {
		parse(t[i].line);
		if (t[i].rank != -2)
			assert_int_equal(ln.rank, t[i].rank);
		assert_int_equal(ln.label, t[i].label);
		assert_int_equal(ln.pid, t[i].pid);
	}
}

static void
test_c10_with_rank_and_time(void **state)
{
	struct civil c;

	(void)state;
	parse("[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught x");
	assert_int_equal(ln.rank, 0);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	assert_int_equal(ln.sev, 'E');
	msg_is("[Rank 0] Watchdog caught x");
	assert_true(ln.ts.flags & STAMP_NOYEAR);
	assert_false(ln.ts.flags & STAMP_YEARGUESS);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2023);	/* 18 Dec is closer to June 2024 in 2023 */
	assert_int_equal(c.mon, 12);
	assert_int_equal(c.mday, 18);
	assert_int_equal(c.hour, 20);
	assert_int_equal(ln.ts.nsec, 0);	/* the fraction is monotonic, not wall time */
	/* month-day not zero padded: 5 June is 605 */
	parse("[rank12]:[W605 09:09:08.164985384 ProcessGroupNCCL.cpp:757] hello");
	assert_int_equal(ln.rank, 12);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.mon, 6);
	assert_int_equal(c.mday, 5);
	assert_int_equal(c.year, 2024);
}

static void
test_c10_old_shapes(void **state)
{
	(void)state;
	parse("[E ProcessGroupNCCL.cpp:474] [Rank 3] Watchdog caught");
	msg_is("[Rank 3] Watchdog caught");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_GROUP);	/* only a group rank: said so */
	parse("[rank25]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] Heartbeat monitor timed out!");
	assert_int_equal(ln.rank, 25);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	msg_is("[PG 0 Rank 25] Heartbeat monitor timed out!");
}

static void
test_excepthook_and_repeated_prefixes(void **state)
{
	(void)state;
	parse("[rank4]: [rank4]: torch.distributed.DistBackendError: NCCL error in: x");
	assert_int_equal(ln.rank, 4);
	msg_is("torch.distributed.DistBackendError: NCCL error in: x");
	parse("[rank13]: Last error:");
	msg_is("Last error:");
}

/* pdsh's "host: " with a plain name ("gpu003", no - or .): taken once
 * the stream shows it before a log line, or before an exception. */
static void
test_plain_host_prefix(void **state)
{
	(void)state;
	parse("gpu003: step 3 done");	/* not yet known */
	msg_is("gpu003: step 3 done");
	parse("gpu003: [2024-02-11 22:36:22,106] [INFO] [launch.py:315:sigkill_handler] Killing "
	    "subprocess 275125");
	msg_is("Killing subprocess 275125");
	assert_int_equal(ln.hostlen, 6);
	assert_memory_equal(ln.host, "gpu003", 6);
	parse("gpu003: step 3 done");	/* known now */
	msg_is("step 3 done");
	parse("node1: torch.distributed.DistBackendError: NCCL error");
	msg_is("torch.distributed.DistBackendError: NCCL error");
	assert_memory_equal(ln.host, "node1", 5);
	/* a parent relaying its child's stream */
	parse("stderr: [rank1]: RuntimeError: boom");
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.rank, 1);
	parse("stdout: Root Cause (first observed failure):");
	msg_is("Root Cause (first observed failure):");
	/* a word and a number are no host; "rank3" is no host */
	parse("epoch3: loss 0.5");
	msg_is("epoch3: loss 0.5");
	parse("rank3: Traceback (most recent call last):");
	msg_is("rank3: Traceback (most recent call last):");
	parse("Step42: ok then");
	msg_is("Step42: ok then");
	/* capitals and digits are an Ascend error code, not a host */
	parse("EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution of the "
	    "Notify register times out.");
	assert_null(ln.host);
	assert_int_equal(ln.msg[0], 'E');
	parse("EZ9999: [PID: 14897] Inner Error!");
	assert_null(ln.host);
}

/* UCX's head on a fatal signal, "[host:pid:thread:tid] ", the pid padded:
 * the host and the pid, also for a host that starts with a digit. */
static void
test_ucx_head(void **state)
{
	(void)state;
	parse("[gpu-h03:5512 :0:5590] Caught signal 7 (Bus error: nonexistent physical address)");
	msg_is("Caught signal 7 (Bus error: nonexistent physical address)");
	assert_int_equal(ln.hostlen, 7);
	assert_memory_equal(ln.host, "gpu-h03", 7);
	assert_int_equal(ln.pid, 5512);
	parse("[0a1b2c3d4e5f:301:0:377] Caught signal 11 (Segmentation fault: address not mapped)");
	msg_is("Caught signal 11 (Segmentation fault: address not mapped)");
	assert_int_equal(ln.pid, 301);
	assert_memory_equal(ln.host, "0a1b2c3d4e5f", 12);
	/* not UCX's: a time, a torchrun tag, a bracket of words */
	parse("[2024-12-18 19:02:11,003] [INFO] [launch.py:315:main] ok");
	assert_int_equal(ln.pid, -1);
	parse("[default3]:step 3");
	assert_int_equal(ln.pid, -1);
	parse("[node3:55] pending");
	msg_is("[node3:55] pending");
	assert_null(ln.host);
	/* Open MPI's crash handler's "[host:pid] " (a container's id) */
	parse("[e53955024127:106967] *** Process received signal ***");
	msg_is("*** Process received signal ***");
	assert_memory_equal(ln.host, "e53955024127", 12);
	assert_int_equal(ln.pid, 106967);
	parse("[gpu-n12:40917] [ 3] /usr/lib/libnccl.so.2(+0x5a1f2)[0x7f11]");
	msg_is("[ 3] /usr/lib/libnccl.so.2(+0x5a1f2)[0x7f11]");
	assert_int_equal(ln.pid, 40917);
	parse("[Epoch:30] *** done ***");	/* no digit in the name: no host */
	assert_null(ln.host);

	/* its log line: "[EPOCH.usec] [host:pid:thread] ", the time UTC */
	parse("[1733400000.250001] [gpu-h03:7356 :0]            sock.c:323  UCX  ERROR   "
	    "connect(fd=31, dest_addr=10.1.0.4:40011) failed: Connection refused");
	msg_is("sock.c:323  UCX  ERROR   connect(fd=31, dest_addr=10.1.0.4:40011) failed: "
	    "Connection refused");
	assert_memory_equal(ln.host, "gpu-h03", 7);
	assert_int_equal(ln.pid, 7356);
	day_is(2024, 12, 5);
	assert_int_equal(ln.ts.nsec, 250001000);
	/* a bracketed epoch is no collector's host; an address is */
	parse("[1733400000.250001] pending");
	assert_null(ln.host);
	parse("[10.1.0.4] [2024-12-05 12:00:00,000] [INFO] ok");
	assert_memory_equal(ln.host, "10.1.0.4", 8);
}

/* grep's file names before the lines it found in several files: the
 * name (without .log) is the line's stream, taken as its host; then the
 * line is read as it is. */
static void
test_grep_file_name(void **state)
{
	(void)state;
	parse("prefill-2.log:[2025-09-17 15:16:23] prefill-2:311:405 [0] transport/net_ib.cc:199 "
	    "NCCL WARN NET/IB : mlx5_32:1 Got async error event: port error");
	msg_is("transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_32:1 Got async error event: port error");
	assert_int_equal(ln.hostlen, 9);
	assert_memory_equal(ln.host, "prefill-2", 9);
	assert_int_equal(ln.pid, 311);
	day_is(2025, 9, 17);
	parse("logs/rank3.out:120:[rank3]: RuntimeError: boom");
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.rank, 3);
	parse("train.log-121-[rank3]:   File \"x.py\", line 1");
	msg_is("train.log-121-[rank3]:   File \"x.py\", line 1");
	/* a word and a colon is no file name */
	parse("config.yaml: missing key");
	msg_is("config.yaml: missing key");
}

/* A log collector's "[pod-name] " before a dated line: the pod is the
 * host; a bracket of words, or one with no date after it, is text. */
static void
test_bracket_host(void **state)
{
	(void)state;
	parse("[dlc1mtq5-master-0] [2026-03-30 19:24:42,731] torch.distributed.elastic."
	    "multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 77)");
	msg_is("failed (exitcode: -9) local_rank: 0 (pid: 77)");
	assert_int_equal(ln.hostlen, 17);
	assert_memory_equal(ln.host, "dlc1mtq5-master-0", 17);
	day_is(2026, 3, 30);
	parse("[job-worker-3] Traceback (most recent call last):");
	msg_is("Traceback (most recent call last):");
	parse("[step-100] loss 2.31");
	msg_is("[step-100] loss 2.31");
	assert_null(ln.host);
	parse("[WARNING] [2026-03-30 19:24:42] still text");
	assert_null(ln.host);
}

/* The traceback Python chains to the exception above it: its header and
 * frames flagged, not its exception line; another rank's line between
 * leaves it open, and its exception line ends it. */
static void
test_chained_traceback(void **state)
{
	(void)state;
	parse("[rank1]: TimeoutError");
	assert_false(ln.flags & LINE_CHAINED);
	parse("[rank1]: The above exception was the direct cause of the following exception:");
	assert_false(ln.flags & LINE_CHAINED);
	parse("[rank1]: ");
	assert_true(ln.flags & LINE_CHAINED);
	parse("[rank1]: Traceback (most recent call last):");
	assert_true(ln.flags & LINE_CHAINED);
	parse("[rank4]: Traceback (most recent call last):");
	assert_false(ln.flags & LINE_CHAINED);
	parse("[rank1]:   File \"/srv/train.py\", line 12, in main");
	assert_true(ln.flags & LINE_CHAINED);
	parse("[rank1]: RuntimeError: step failed");
	assert_false(ln.flags & LINE_CHAINED);
	parse("[rank1]: Traceback (most recent call last):");
	assert_false(ln.flags & LINE_CHAINED);
	parse("During handling of the above exception, another exception occurred:");
	parse("Traceback (most recent call last):");
	assert_true(ln.flags & LINE_CHAINED);
	parse("Epoch 3: 100%|##########| 40/40");
	assert_false(ln.flags & LINE_CHAINED);
	parse("  File \"/srv/train.py\", line 12, in main");
	assert_false(ln.flags & LINE_CHAINED);
}

/* Python's "Exception ignored in:" and the traceback after it: each line
 * flagged, up to its exception line; another rank's line between leaves
 * it open, and a line of its own rank that is none of it ends it. */
static void
test_ignored_exception_record(void **state)
{
	(void)state;
	parse("[rank2]: Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ "
	    "at 0x7f3a2c1d0>");
	assert_true(ln.flags & LINE_IGNORED);
	parse("[rank2]: Traceback (most recent call last):");
	assert_true(ln.flags & LINE_IGNORED);
	parse("[rank5]: step 40 loss 2.11");
	assert_false(ln.flags & LINE_IGNORED);
	parse("[rank2]:   File \"/opt/venv/lib/python3.11/site-packages/torch/utils/data/"
	    "dataloader.py\", line 1477, in __del__");
	assert_true(ln.flags & LINE_IGNORED);
	parse("[rank2]: AssertionError: can only test a child process");
	assert_true(ln.flags & LINE_IGNORED);
	/* ended: the next traceback of the rank is its own */
	parse("[rank2]: Traceback (most recent call last):");
	assert_false(ln.flags & LINE_IGNORED);
	parse("[rank2]: ValueError: bad shape");
	assert_false(ln.flags & LINE_IGNORED);
	/* unranked, after ^C; a line that is no part of it ends it */
	parse("^CException ignored in: <module 'threading' from '/usr/lib/python3.11/threading.py'>");
	assert_true(ln.flags & LINE_IGNORED);
	parse("Traceback (most recent call last):");
	assert_true(ln.flags & LINE_IGNORED);
	parse("Epoch 3: 100%|##########| 40/40");
	assert_false(ln.flags & LINE_IGNORED);
	parse("KeyboardInterrupt:");
	assert_false(ln.flags & LINE_IGNORED);
}

/* faulthandler's dump at a fatal signal: its threads and frames are
 * flagged, up to the first line that is none of them */
static void
test_crash_dump_record(void **state)
{
	(void)state;
	parse("[rank3]:Fatal Python error: Segmentation fault");
	assert_false(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:");
	assert_true(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:Current thread 0x00007f2a10c4b740 (most recent call first):");
	assert_true(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:  File \"/work/train.py\", line 88 in step");
	assert_true(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:Extension modules: numpy.core._multiarray_umath, torch._C (total: 2)");
	assert_true(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:step 5 loss 1.0");
	assert_false(ln.flags & LINE_CRASH_DUMP);
	parse("[rank3]:  File \"/work/train.py\", line 88 in step");
	assert_false(ln.flags & LINE_CRASH_DUMP);
	/* the dump faulthandler writes on a timer is no crash's */
	parse("Timeout (0:05:00)!");
	parse("Thread 0x00007f2a10c4b740 (most recent call first):");
	assert_false(ln.flags & LINE_CRASH_DUMP);
}

static void
test_torchrun_tee_local_rank(void **state)
{
	(void)state;
	parse("[default3]:[rank11]:[E606 09:09:08.164985384 ProcessGroupNCCL.cpp:757] boom");
	assert_int_equal(ln.rank, 11);	/* the global prefix wins */
	assert_int_equal(ln.local_rank, 3);
	msg_is("boom");
	/* the same node's lines with the local prefix alone: rank 11 said
	 * its node's ranks are its local ranks + 8 */
	parse("[default3]:hello world");
	assert_int_equal(ln.rank, 11);
	assert_int_equal(ln.rank_from, RANK_LOCAL);
	parse("[default1]:frame #0: c10::Error::Error + 0x96");
	assert_int_equal(ln.rank, 9);
	/* a second node's in the same stream: which node a local rank is on
	 * is no longer known, and it is taken as it is */
	parse("[default3]:[rank3]:[E606 09:09:09.164985384 ProcessGroupNCCL.cpp:757] boom");
	assert_int_equal(ln.rank, 3);
	parse("[default1]:frame #0: c10::Error::Error + 0x96");
	assert_int_equal(ln.rank, 1);
	assert_int_equal(ln.rank_from, RANK_LOCAL);
	parse("[default1]:[rank9]:x");
	parse("[default1]:y");
	assert_int_equal(ln.rank, 1);
	/* the torchrun summary's "[0]:" alone is not a prefix */
	parse("[0]:");
	msg_is("[0]:");
	/* a ${rank} template "[7]:text" is */
	parse("[7]:text");
	assert_int_equal(ln.rank, 7);

	/* TorchX's "ROLE/REPLICA " before torchrun's --tee with an empty
	 * role: the replica is a node, "[N]:" its local rank */
	linestate_init(&st, -1, -1, 0);
	parse("  nproc_per_node   : 4");
	parse("trainer/1 [2]:RuntimeError: boom");
	assert_int_equal(ln.rank, 6);
	assert_int_equal(ln.rank_from, RANK_LOCAL);
	assert_int_equal(ln.local_rank, 2);
	msg_is("RuntimeError: boom");
	parse("main_train/0 [default1]:hello");
	assert_int_equal(ln.rank, 1);
	msg_is("hello");
	/* words with a slash are no replica */
	linestate_init(&st, -1, -1, 0);
	parse("epoch/3 done");
	assert_int_equal(ln.rank, -1);
	msg_is("epoch/3 done");
	parse("loss/2 [ok]");
	msg_is("loss/2 [ok]");
}

static void
test_slurm_label_mpi_ray(void **state)
{
	static const struct {
		const char	*line;
		int		 rank;
		const char	*msg;
	} tags[] = {
		{ "[1,5]<stderr>:mpi line", 5, "mpi line" },
		{ "[3]<stderr>:RuntimeError: gloo line", 3, "RuntimeError: gloo line" },
		{ "[12]<stdout>: step 10", 12, "step 10" },
	};
	size_t i;

	(void)state;
	parse(" 9: [rank9]:[E618 12:13:01.1 x.cpp:1] m");	/* bad fraction: not a header */
	assert_int_equal(ln.rank, 9);
	parse(" 3: plain text");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_LABEL);
	msg_is("plain text");
	parse("P1  12: het");
	assert_int_equal(ln.rank, 12);
	/* stream tags: Open MPI's [job,rank], horovodrun's (Gloo) [rank] */
	for (i = 0; i < sizeof tags / sizeof *tags; i++) {
		parse(tags[i].line);
		assert_int_equal(ln.rank, tags[i].rank);
		assert_int_equal(ln.rank_from, RANK_LABEL);
		msg_is(tags[i].msg);
	}
	parse("[0]: the failure summary's own");	/* not a stream tag */
	assert_int_equal(ln.label, -1);
	/* after a launcher's tag, "6: " is the program's (Horovod's list
	 * of stalled ranks), not srun's label */
	parse("[1,0]<stderr>:6: [horovod_allreduce.0, horovod_allreduce.1]");
	assert_int_equal(ln.rank, 0);
	msg_is("6: [horovod_allreduce.0, horovod_allreduce.1]");
	parse("(worker1, rank=1, pid=27522, ip=10.105.0.4) [rank4]: [rank4]:   File \"x.py\"");
	assert_int_equal(ln.rank, 4);
	msg_is("  File \"x.py\"");
	parse("(WorkerDict pid=26110) [rank7]:[W1120 01:13:20.892421310 ProcessGroupNCCL.cpp:1662] "
	    "Failed to check [repeated 5x across cluster]");
	assert_int_equal(ln.rank, 7);
	msg_is("Failed to check");
	/* An exception line continues the record above it... */
	parse("RuntimeError: 3: bad");
	assert_int_equal(ln.rank, 7);
	assert_int_equal(ln.rank_from, RANK_INHERIT);
	/* ...but is no label: a number inside text, or no space after the colon */
	linestate_init(&st, -1, -1, 0);
	parse("RuntimeError: 3: bad");
	assert_int_equal(ln.rank, -1);
	parse("12:30 lunch");
	assert_int_equal(ln.rank, -1);

	/* srun started one torchrun a node: its label is the node's, which
	 * "1: [rank12]:" shows; the node's other lines are of no one rank */
	linestate_init(&st, -1, -1, 0);
	parse("1: gpu-b07:4410:4480 [4] NCCL INFO Bootstrap : Using ib0:10.0.0.7<0>");
	assert_int_equal(ln.rank, 1);
	parse("1: [rank12]: Traceback (most recent call last):");
	assert_int_equal(ln.rank, 12);
	parse("1: gpu-b07:4410:4480 [4] bootstrap.cc:77 NCCL WARN Message truncated");
	assert_int_equal(ln.rank, -1);
	assert_int_equal(ln.label, 1);
	/* one task a rank: label and rank agree */
	linestate_init(&st, -1, -1, 0);
	parse("3: [rank3]: Traceback (most recent call last):");
	parse("3: gpu-b07:4410:4480 [3] NCCL WARN Message truncated");
	assert_int_equal(ln.rank, 3);
}

static void
test_glued_after_progress_bar(void **state)
{
	(void)state;
	parse("Epoch 9:   0%|   | 1/1252 [00:02<58:30,  0.36it/s, v_num=1][rank2]:"
	    "[E1229 20:29:13.091296956 ProcessGroupNCCL.cpp:1484] stuck");
	assert_int_equal(ln.rank, 2);
	assert_true(ln.flags & LINE_GLUED);
	msg_is("stuck");
	/* torchrun --tee's prefix, glued after another local rank's bar */
	parse("[default0]:Packing:  41%|####1     | 4100/10000 [00:51<01:14, 79.40 ex/s]"
	    "[default3]:[E ProcessGroupNCCL.cpp:475] [Rank 3] stuck");
	assert_int_equal(ln.rank, 3);
	assert_true(ln.flags & LINE_GLUED);
	msg_is("[Rank 3] stuck");
	parse("\r 10%|#| 1/10\r 20%|##| 2/10\r[rank1]: Traceback (most recent call last):");
	assert_int_equal(ln.rank, 1);
	msg_is("Traceback (most recent call last):");
}

/* Two processes writing one file without a lock: another rank's record
 * inside this one's line ends its message, and splice says where it
 * starts; a bracketed word that is no prefix does not. */
static void
test_spliced_record_ends_message(void **state)
{
	static const char two[] = "[rank0]: step 41 loss 2.5[rank3]: RuntimeError: boom";

	(void)state;
	parse(two);
	assert_int_equal(ln.rank, 0);
	msg_is("step 41 loss 2.5");
	assert_int_equal(ln.splice, strlen("[rank0]: step 41 loss 2.5"));
	assert_int_equal(ln.rawlen, ln.splice);
	line_parse(&st, two + ln.splice, strlen(two) - ln.splice, &ln);
	assert_int_equal(ln.rank, 3);
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.splice, 0);
	parse("[default1]:[W1204 10:00:00.1 File.cpp:9] waiting, NumelIn=4, Nu[default2]:[E1204 10:00:00.2 "
	    "File.cpp:9] stuck");
	assert_int_equal(ln.rank, 1);
	msg_is("waiting, NumelIn=4, Nu");
	/* not a prefix: no colon, a word after the colon, no digits, or a
	 * line without a rank prefix of its own */
	parse("[rank0]: ranks [rank3] and [rank4]:x differ, see [rank]: [ranked]:");
	assert_int_equal(ln.splice, 0);
	msg_is("ranks [rank3] and [rank4]:x differ, see [rank]: [ranked]:");
	parse("RuntimeError: step 41[rank3]: boom");
	assert_int_equal(ln.splice, 0);
	/* a prefix's start at the very end of the line is read no further
	 * than the line (each copied to a buffer of its own size, so that a
	 * sanitizer build sees any byte read past it) */
	{
		static const char *const ends[] = { "[rank0]: loss 2.5, lr 1e-4 [", "[rank0]: loss 2.5, lr 1e-4 [r",
		    "[rank0]: loss 2.5, lr 1e-4 [ran", "[rank0]: loss 2.5, lr 1e-4 [rank3",
		    "[rank0]: loss 2.5, lr 1e-4 [rank3]", "[rank0]: loss 2.5, lr 1e-4 [default",
		    "[rank0]: loss 2.5, lr 1e-4 [default1]" };
		size_t i;

		for (i = 0; i < sizeof ends / sizeof *ends; i++) {
			size_t n = strlen(ends[i]);
			char *b = malloc(n);

			assert_non_null(b);
			memcpy(b, ends[i], n);
			line_parse(&st, b, n, &ln);
			assert_int_equal(ln.rank, 0);
			assert_int_equal(ln.splice, 0);
			free(b);
		}
		parse("[rank0]: loss 2.5 [rank3]:");
		assert_int_equal(ln.splice, strlen("[rank0]: loss 2.5 "));
	}
}

/* A level at the start of the message, where no header gave one: the
 * line's sev, and the message keeps it. */
static void
test_level_in_message(void **state)
{
	static const struct {
		const char	*line;
		char		 sev;
	} c[] = {
		{ "ERROR:root:shard 3 is gone", 'E' },
		{ "FATAL: cannot map the segment", 'F' },
		{ "CRITICAL:trainer:out of retries", 'F' },
		{ "WARNING:root:slow", 'W' },
		{ "[ERROR] upload failed", 'E' },
		{ "[E] upload failed", 'E' },
		{ "2024-05-01 12:00:00,123 - trainer - ERROR - shard 17 could not be opened", 'E' },
		{ "2024-05-01 12:00:00,123 - INFO - step 3", 'I' },
		{ "2024-05-01 12:00:00 [ERROR] Something broke", 'E' },
		{ "slurmstepd: error: pyxis: container start failed with error code: 1", 'E' },
		{ "train.py: error: unrecognized arguments: --lr", 'E' },
		{ "git: fatal: not a git repository", 'F' },
		/* not levels */
		{ "the error: is somewhere", 0 },
		{ "srun: error", 0 },
		{ "ERRORS: 0", 0 },
		{ "Error: not a logger's word", 0 },
		{ "[ERRORS] 0", 0 },
		{ "ERROR", 0 },
		{ "trainer - ERRORS - 3", 0 },
		{ "see the ERROR: line above", 0 },
		{ "[Errno 28] No space left", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof *c; i++) {
		parse(c[i].line);
		if (ln.sev != c[i].sev)
			fail_msg("%s: sev %d, want %d", c[i].line, ln.sev, c[i].sev);
	}
	parse("ERROR:root:shard 3 is gone");
	msg_is("ERROR:root:shard 3 is gone");
	/* a platform's time before each line of a traceback: the line's own
	 * indentation stays (one space parts it from the time) */
	parse("[2024-07-08 15:29:47]     self._fd = _posixshmem.shm_open(name, flags)");
	msg_is("    self._fd = _posixshmem.shm_open(name, flags)");
	day_is(2024, 7, 8);
	parse("[2024-07-08 15:29:47] Traceback (most recent call last):");
	msg_is("Traceback (most recent call last):");
	/* OLMo's logger: the level padded, then module, line and rank */
	parse("[2024-04-18 19:10:41] CRITICAL [olmo.util:158, rank=3] Uncaught OLMoThreadError: boom");
	msg_is("Uncaught OLMoThreadError: boom");
	assert_int_equal(ln.sev, 'F');
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	parse("[2024-04-18 19:06:17] INFO     [olmo.train:816] [step=75/739328]");
	msg_is("[step=75/739328]");
	assert_int_equal(ln.sev, 'I');
	assert_int_equal(ln.rank, -1);
	parse("[2024-04-18 19:06:17] ERROR [see the log] x");	/* no module:line */
	msg_is("ERROR [see the log] x");
	parse("[2024-04-18 19:06:17] ERROR [mod:12, rank=5]x");	/* no head: no rank */
	assert_int_equal(ln.rank, -1);
	/* the AWS Neuron runtime's header: a month's name in the date, the
	 * pid and thread, the level */
	parse("2025-Jun-28 22:19:15.499043  8649:8757  ERROR   NRT:nrt_load  model load failed");
	msg_is("NRT:nrt_load  model load failed");
	assert_int_equal(ln.sev, 'E');
	assert_int_equal(ln.pid, 8649);
	day_is(2025, 6, 28);
	parse("2023-Aug-01 16:12:43.0204 332066:332417 [18] bootstrap.cc:106 CCOM WARN accept failed");
	msg_is("[18] bootstrap.cc:106 CCOM WARN accept failed");
	assert_int_equal(ln.sev, 0);
	day_is(2023, 8, 1);
	/* Ascend CANN's own: level, module, pid and process name (which
	 * may be empty), then its date-time with milli- and microseconds */
	parse("[ERROR] HCCL(4410,python3):2025-02-01-10:00:00.100.200 [op_base.cc:974][4490] init failed");
	msg_is("[op_base.cc:974][4490] init failed");
	assert_int_equal(ln.sev, 'E');
	assert_int_equal(ln.pid, 4410);
	assert_int_equal(ln.ts.nsec, 100200000);
	day_is(2025, 2, 1);
	parse("[WARNING] HCCP(77,):2026-01-05-08:00:00.100.200 [ra_host.c:580]tid:77 x");
	msg_is("[ra_host.c:580]tid:77 x");
	assert_int_equal(ln.sev, 'W');
	parse("[ERROR] HCCL(4410,python3) lost");
	assert_int_equal(ln.pid, -1);
	/* torch_xla's xla_dist: after its date, the worker's address and
	 * index (a host of several ranks) */
	parse("2023-02-01 10:00:00 10.130.0.12 [1] RuntimeError: x");
	msg_is("RuntimeError: x");
	assert_int_equal(ln.hostlen, strlen("10.130.0.12"));
	assert_memory_equal(ln.host, "10.130.0.12", ln.hostlen);
	assert_int_equal(ln.rank, -1);
	assert_int_equal(ln.label, -1);
	parse("2023-02-01 10:00:00 10.130.0.312 [1] RuntimeError: x");
	msg_is("10.130.0.312 [1] RuntimeError: x");
	/* oneCCL's: the date with colons, the thread (padded, or none);
	 * the level stays in the message */
	parse("2025:03:14-09:12:40:( 3011) |CCL_ERROR| atl_ofi.cpp:243 init: x");
	msg_is("|CCL_ERROR| atl_ofi.cpp:243 init: x");
	assert_int_equal(ln.sev, 'E');
	assert_int_equal(ln.pid, -1);	/* a thread's id */
	assert_true(ln.ts.flags & STAMP_TIME);
	day_is(2025, 3, 14);
	parse("2025:03:14-09:12:40:(30117) |CCL_WARN| could not get local_idx/count");
	msg_is("|CCL_WARN| could not get local_idx/count");
	assert_int_equal(ln.sev, 'W');
	parse("2026:01:09-17:40:02 |CCL_INFO| libfabric version: 2.2.0");
	msg_is("|CCL_INFO| libfabric version: 2.2.0");
	assert_int_equal(ln.sev, 'I');
	parse("|CCL_ERROR| atl_mpi_comm.cpp:90 init_transport: comm_create error");
	assert_int_equal(ln.sev, 'E');
	parse("2025:03:14-09:12:40:(30117) not oneCCL's");
	msg_is("2025:03:14-09:12:40:(30117) not oneCCL's");
	parse("|CCL_TRACEBACK| x");
	assert_int_equal(ln.sev, 0);
	/* torch_npu's head of its errors: the process's rank (RANK), pid,
	 * time; the message keeps it */
	parse("[rank1]: [ERROR] 2025-02-01-10:00:00 (PID:4411, Device:1, RankID:1) ERR01100 OPS call "
	    "acl api failed.");
	assert_int_equal(ln.rank, 1);
	assert_int_equal(ln.pid, 4411);
	parse("[ERROR] 2025-02-01-10:00:00.120.331 (PID:4412, Device:2, RankID:10). ERR02200 DIST "
	    "call hccl api failed.");
	assert_int_equal(ln.rank, 10);
	assert_int_equal(ln.rank_from, RANK_NAMED);
	assert_int_equal(ln.pid, 4412);
	assert_int_equal(ln.sev, 'E');
	assert_int_equal(ln.ts.nsec, 120331000);
	day_is(2025, 2, 1);
	msg_is("[ERROR] 2025-02-01-10:00:00.120.331 (PID:4412, Device:2, RankID:10). ERR02200 DIST "
	    "call hccl api failed.");
	parse("[ERROR] 2025-02-01-10:00:00 (PID:4413, Device:0, RankID:-1) ERR02200 DIST call hccl "
	    "api failed.");
	assert_int_equal(ln.rank, -1);
	assert_int_equal(ln.pid, 4413);
	/* a logger's name in capitals before the level and the date */
	parse("LAUNCH ERROR 2022-11-21 02:35:54,385 Container failed !!!");
	msg_is("Container failed !!!");
	assert_int_equal(ln.sev, 'E');
	day_is(2022, 11, 21);
	/* a collector's time ended by a colon, then Open MPI's tag */
	parse("2021-03-10T13:22:37.483Z: [1,3]<stderr>:OSError: cannot identify image file");
	msg_is("OSError: cannot identify image file");
	assert_int_equal(ln.rank, 3);
	day_is(2021, 3, 10);
	/* the logger's name before the level (the logging cookbook's
	 * "%(asctime)s - %(name)s - %(levelname)s - %(message)s") */
	parse("2025-10-31 03:11:02,474 - my_trainer.ckpt - ERROR - [rank7]: AssertionError");
	msg_is("AssertionError");
	assert_int_equal(ln.rank, 7);
	assert_int_equal(ln.sev, 'E');
	parse("2025-10-31 03:11:02,474 - step 10 - loss 2.1");
	msg_is("step 10 - loss 2.1");
	assert_int_equal(ln.sev, 0);
	/* the level in brackets, then the date (torchelastic's agent, 1.9) */
	parse("[ERROR] 2022-08-21 20:11:07,312 api: failed (exitcode: -9) local_rank: 0 (pid: 28) "
	    "of binary: /usr/bin/python");
	msg_is("api: failed (exitcode: -9) local_rank: 0 (pid: 28) of binary: /usr/bin/python");
	assert_int_equal(ln.sev, 'E');
	day_is(2022, 8, 21);
	parse("[INFO] 2022-08-21 20:11:08,757 api: [default] Worker group FAILED.");
	msg_is("api: [default] Worker group FAILED.");
	assert_int_equal(ln.sev, 'I');
	parse("[NOTE] 2022-08-21 20:11:08 is not a level");
	assert_int_equal(ln.sev, 0);
	msg_is("[NOTE] 2022-08-21 20:11:08 is not a level");
	parse("NCCL INFO 2024 words");
	msg_is("NCCL INFO 2024 words");
	parse("2025-June is when it broke");
	assert_int_equal(ln.sev, 0);
	msg_is("2025-June is when it broke");
}

static void
test_headers_with_dates(void **state)
{
	struct civil c;

	(void)state;
	parse("[2024-05-01 12:00:00,123] [INFO] [engine.py:123:_configure] DeepSpeed info");
	msg_is("DeepSpeed info");
	assert_int_equal(ln.sev, 'I');
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2024);
	assert_int_equal(ln.ts.nsec, 123000000);
	parse("[2024-07-25 06:36:18,293] torch.distributed.elastic.multiprocessing.api: [WARNING] "
	    "Sending process 179 closing signal SIGTERM");
	msg_is("Sending process 179 closing signal SIGTERM");
	parse("2024-06-12 10:03:11,482 INFO train.py:88 step 120");
	msg_is("train.py:88 step 120");
	parse("[NeMo I 2024-07-31 19:59:50 utils:47] nemo says");
	msg_is("nemo says");
	parse(" [2024-05-01 12:00:00] iteration      100/  500000 |");
	msg_is("iteration      100/  500000 |");
	/* a date line sets the anchor for later year-less lines */
	stamp_to_civil(st.anchor, &c);
	assert_int_equal(c.year, 2024);
	assert_int_equal(c.mon, 5);
	/* TensorRT-LLM: month first, '-' before the time; its logger's
	 * "[TRT-LLM] [RANK N] [E] " is the MPI world rank and the level */
	parse("[11/17/2025-14:46:33] [TRT-LLM] [RANK 3] [E] Failed to initialize executor on rank 3");
	msg_is("Failed to initialize executor on rank 3");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	assert_int_equal(ln.sev, 'E');
	day_is(2025, 11, 17);
	parse("[11/17/2025-14:46:34] [TRT-LLM] [I] TensorRT-LLM inited.");
	msg_is("TensorRT-LLM inited.");
	assert_int_equal(ln.rank, -1);
	parse("[13/17/2025-14:46:34] [TRT-LLM] [I] no such month");
	assert_false((ln.ts.flags & STAMP_TIME) && !(ln.ts.flags & STAMP_INHERITED));
	/* Kibana's "May 16, 2026 @ 20:46:57.892" and a table row's blanks */
	parse("May 16, 2026 @ 20:46:57.892    [rank8]:[W516 12:46:57.499514954 "
	    "ProcessGroupNCCL.cpp:1826] [PG ID 0 PG GUID 0 Rank 8] store gone");
	assert_int_equal(ln.rank, 8);
	msg_is("[PG ID 0 PG GUID 0 Rank 8] store gone");
	day_is(2026, 5, 16);
	assert_int_equal(ln.ts.nsec, 892000000);
	parse("May 16 20:46:57 gpu-a01 kernel: still syslog");
	msg_is("still syslog");
}

/* A date first is no launcher prefix (peel_one is not asked), but a
 * number of the same digits with a launcher's punctuation still is. */
static void
test_dates_and_numbers_first(void **state)
{
	static const struct {
		const char	*line;
		int		 rank;
		enum rank_from	 from;
		const char	*msg;
		int		 timed;
	} v[] = {
		/* NCCL 2.26+ and loggers: prefixes after the date */
		{ "2024-06-12 10:03:11,482 INFO [rank3]: x", 3, RANK_PREFIX, "x", 1 },
		{ "[2024-06-12 10:03:11,482] [INFO] y", -1, RANK_NONE, "y", 1 },
		{ "2024: z", 2024, RANK_LABEL, "z", 0 },
		{ "[2024]: w", 2024, RANK_PREFIX, " w", 0 },	/* a template's own space */
		{ "[2024,7]<stderr>:v", 7, RANK_LABEL, "v", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof v / sizeof *v; i++) {
		reset(NULL);
		parse(v[i].line);
		assert_int_equal(ln.rank, v[i].rank);
		assert_int_equal(ln.rank_from, v[i].from);
		msg_is(v[i].msg);
		assert_int_equal(stamp_own(&ln.ts), v[i].timed);
	}
	parse("2024-06-12-node7: u");	/* a host, not a date */
	assert_int_equal(ln.hostlen, strlen("2024-06-12-node7"));
	msg_is("u");
}

static void
test_glog_and_nccl(void **state)
{
	(void)state;
	parse("W0817 02:40:09.311000 17860 torch/distributed/elastic/multiprocessing/api.py:900] "
	    "Sending process 17942 closing signal SIGINT");
	msg_is("Sending process 17942 closing signal SIGINT");
	assert_int_equal(ln.sev, 'W');
	assert_true(ln.ts.flags & STAMP_NOYEAR);
	/* before 2.4 torch.distributed.elastic's Python threads wrote their
	 * threading.get_ident() there */
	parse("I0617 03:17:51.687000 140319081027392 torch/distributed/elastic/agent/server/api.py:1"
	    "] [default] Starting worker group");
	msg_is("[default] Starting worker group");
	assert_true(ln.ts.flags & STAMP_TIME);
	parse("node-1:178:828 [0] NCCL INFO comm 0x55 rank 16 nranks 32 - Abort COMPLETE");
	msg_is("NCCL INFO comm 0x55 rank 16 nranks 32 - Abort COMPLETE");
	assert_int_equal(ln.pid, 178);
	assert_int_equal(ln.hostlen, 6);
	assert_false(ln.ts.flags & STAMP_TIME && !(ln.ts.flags & STAMP_INHERITED));
	parse("[2025-03-12 10:11:12] host-a:110:697 [0] misc/socket.cc:50 NCCL WARN socketProgress: closed");
	msg_is("misc/socket.cc:50 NCCL WARN socketProgress: closed");
	assert_true(ln.ts.flags & STAMP_TIME);
	assert_false(ln.ts.flags & STAMP_INHERITED);
	/* host:pid:tid without "NCCL " is not NCCL's */
	parse("a:1:2 something else");
	msg_is("a:1:2 something else");
}

/* transformers' example scripts: month first, then level and logger */
static void
test_us_date_header(void **state)
{
	struct civil c;

	(void)state;
	parse("02/11/2024 22:36:19 - INFO - llmtuner.data.template - Replace eos token: <|im_end|>");
	msg_is("Replace eos token: <|im_end|>");
	assert_int_equal(ln.sev, 'I');
	day_is(2024, 2, 11);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.hour, 22);
	parse("11/30/2024 06:00:01 - ERROR - __main__ - RuntimeError: boom");
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.sev, 'E');
	/* a date alone, then the message */
	parse("11/30/2024 06:00:01 training started");
	msg_is("training started");
	assert_true(ln.ts.flags & STAMP_TIME);
	/* no month 13, no such date */
	parse("13/30/2024 06:00:01 x");
	assert_false(ln.ts.flags & STAMP_TIME && !(ln.ts.flags & STAMP_INHERITED));
}

/* The level before the date: a log store's export ("ERROR
 * 2025-04-05T00:01:19.209Z ..."), Python logging's "%(levelname)s
 * %(asctime)s"; the level word alone does not make a header. */
static void
test_level_then_date_header(void **state)
{
	struct civil c;

	(void)state;
	parse("ERROR 2025-04-05T00:01:19.209110975Z Error while creating shared memory segment");
	msg_is("Error while creating shared memory segment");
	assert_int_equal(ln.sev, 'E');
	day_is(2025, 4, 5);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.sec, 19);
	parse("INFO 2024-07-02 08:15:00,250 step 40 loss 2.31");
	msg_is("step 40 loss 2.31");
	assert_int_equal(ln.sev, 'I');
	day_is(2024, 7, 2);
	parse("CRITICAL: 2024-07-02 08:15:01 RuntimeError: boom");
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.sev, 'F');
	/* vLLM's month-day header stays vLLM's */
	parse("ERROR 07-23 19:34:50 [multiproc_executor.py:487] WorkerProc failed to start.");
	msg_is("WorkerProc failed to start.");
	/* a level and a number are no header */
	parse("INFO 2024 was a good year");
	msg_is("INFO 2024 was a good year");
	assert_false(ln.ts.flags & STAMP_TIME && !(ln.ts.flags & STAMP_INHERITED));
}

static void
test_kernel_log_headers(void **state)
{
	struct civil c;

	(void)state;
	parse("[Tue Jun 18 12:03:01 2024] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.");
	msg_is("NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.");
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2024);
	assert_int_equal(c.mday, 18);
	parse("Jun  8 02:03:04 gpu-b08 kernel: NVRM: Xid (PCI:0000:1b:00): 48, DBE");
	msg_is("NVRM: Xid (PCI:0000:1b:00): 48, DBE");
	assert_int_equal(ln.hostlen, 7);
	assert_memory_equal(ln.host, "gpu-b08", 7);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.mday, 8);
	assert_int_equal(c.hour, 2);
	assert_true(ln.ts.flags & STAMP_NOYEAR);
	parse("[ 1399.140318] NVRM: Xid (PCI:0000:3b:00): 79, x");
	msg_is("NVRM: Xid (PCI:0000:3b:00): 79, x");
	/* words that only look like a month */
	parse("Mayday 12 12:00:00 not syslog");
	msg_is("Mayday 12 12:00:00 not syslog");
}

static void
test_inherited_time_and_records(void **state)
{
	(void)state;
	parse(" 5: [rank5]:[E618 12:03:01.000000001 x.cpp:1] Exception raised somewhere");
	assert_int_equal(ln.rank, 5);
	parse("Exception raised from checkTimeout at x.cpp:760 (most recent call first):");
	assert_int_equal(ln.rank, 5);
	assert_int_equal(ln.rank_from, RANK_INHERIT);
	assert_true(ln.ts.flags & STAMP_INHERITED);
	parse("frame #0: c10::Error::Error() + 0x9d");
	assert_int_equal(ln.rank, 5);
	parse("terminate called after throwing an instance of 'c10::DistBackendError'");
	assert_int_equal(ln.rank, 5);
	parse("an unrelated line from nobody");
	assert_int_equal(ln.rank, -1);
	parse("frame #1: after the record closed");
	assert_int_equal(ln.rank, -1);
}

static void
test_torchrun_summary(void **state)
{
	static const char *const block[] = {
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
		"======================================================",
		"run.py FAILED",
		"------------------------------------------------------",
		"Failures:",
		"[1]:",
		"  time      : 2026-01-15_05:44:28",
		"  host      : xdit",
		"  rank      : 1 (local_rank: 1)",
		"  exitcode  : -11 (pid: 6175)",
		"------------------------------------------------------",
		"Root Cause (first observed failure):",
		"[0]:",
		"  time      : 2026-01-15_05:44:27",
		"  host      : xdit",
		"  rank      : 0 (local_rank: 0)",
		"  exitcode  : -11 (pid: 6174)",
		"  traceback : Signal 11 (SIGSEGV) received by PID 6174",
		"======================================================",
		"after the block",
	};
	size_t i;
	struct civil c;

	(void)state;
	for (i = 0; i < sizeof block / sizeof *block; i++) {
		parse(block[i]);
		if (i == 9) {
			assert_int_equal(ln.rank, 1);
			assert_int_equal(ln.rank_from, RANK_SUMMARY);
			assert_false(ln.flags & LINE_ROOT_CAUSE);
			assert_true(ln.ts.flags & STAMP_REPORTED);
		}
		if (i == 16 || i == 17) {
			assert_int_equal(ln.rank, 0);
			assert_true(ln.flags & LINE_ROOT_CAUSE);
			stamp_to_civil(ln.ts.sec, &c);
			assert_int_equal(c.sec, 27);
		}
	}
	assert_int_equal(ln.rank, -1);
}

static void
test_file_rank_and_group_rank(void **state)
{
	(void)state;
	linestate_init(&st, 6, -1, 0);
	parse("anything at all");
	assert_int_equal(ln.rank, 6);
	assert_int_equal(ln.rank_from, RANK_FILE);
	parse("[rank9]:[E ProcessGroupNCCL.cpp:1] prefix beats file");
	assert_int_equal(ln.rank, 9);
	linestate_init(&st, -1, -1, 0);
	parse("[PG ID 2 PG GUID 3 Rank 3] only a group rank");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	assert_int_equal(st.group_ranked, 1);
}

static void
test_year_guessed_from_mtime(void **state)
{
	struct civil c;

	(void)state;
	linestate_init(&st, -1, -1, 19892LL * 86400);	/* mtime only */
	parse("[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] x");
	assert_true(ln.ts.flags & STAMP_YEARGUESS);
	/* the torchrun summary's time has a year: the lines after it
	 * take theirs from it, not from the file's mtime (a paste of an
	 * old run copied today) */
	parse("Root Cause (first observed failure):");
	parse("[0]:");
	parse("  time      : 2022-07-26_10:59:45");
	parse("[E726 10:59:50.365679787 ProcessGroupNCCL.cpp:621] y");
	assert_false(ln.ts.flags & STAMP_YEARGUESS);
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2022);
}

/* Pastes and collectors put things in front of the known prefixes. */
static void
test_pasted_and_collected_prefixes(void **state)
{
	struct civil c;

	(void)state;
	parse("> [rank2]:[E1130 06:00:02.000000000 ProcessGroupNCCL.cpp:632] [Rank 2] boom");
	assert_int_equal(ln.rank, 2);
	msg_is("[Rank 2] boom");
	parse("`[rank2]:[E1130 06:00:02.000000000 ProcessGroupNCCL.cpp:632] [Rank 2] boom`");
	assert_int_equal(ln.rank, 2);
	msg_is("[Rank 2] boom");
	parse("E       [rank3]: RuntimeError: boom");
	assert_int_equal(ln.rank, 3);
	msg_is("RuntimeError: boom");
	parse("[80746] [rank0]:[E321 02:07:08.100000000 ProcessGroupNCCL.cpp:1 ] x");
	assert_int_equal(ln.rank, 0);
	parse("10.10.4.7: [rank5]: RuntimeError: boom");
	assert_int_equal(ln.rank, 5);
	assert_int_equal(ln.hostlen, 9);
	assert_memory_equal(ln.host, "10.10.4.7", 9);
	parse("RuntimeError: boom");	/* an exception is no host */
	msg_is("RuntimeError: boom");
	assert_null(ln.host);
	parse("jinja2.exceptions.TemplateNotFound: chat.jinja");	/* nor a class */
	msg_is("jinja2.exceptions.TemplateNotFound: chat.jinja");
	assert_null(ln.host);
	parse("node-7.Cluster2: boom");	/* a capital is no class alone */
	assert_non_null(ln.host);
	/* docker compose's service column, v2 and v1 names */
	parse("serve-llm-1    | [rank3]:[E0612 10:00:02.000000000 ProcessGroupNCCL.cpp:1] x");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	assert_int_equal(ln.hostlen, 11);
	assert_memory_equal(ln.host, "serve-llm-1", 11);
	msg_is("x");
	parse("proj_trainer_2 | RuntimeError: boom");
	msg_is("RuntimeError: boom");
	assert_int_equal(ln.hostlen, 14);
	/* a container_name of the compose file: no replica number */
	parse("vllm-service  | 2026:09:04-19:19:08:(  192) |CCL_ERROR| boom");
	assert_int_equal(ln.hostlen, 12);
	assert_memory_equal(ln.host, "vllm-service", 12);
	msg_is("|CCL_ERROR| boom");
	assert_true(ln.ts.flags & STAMP_TIME);
	parse("Epoch1  | loss 0.31 | lr 1e-4");	/* no - or _ in the name: a message */
	msg_is("Epoch1  | loss 0.31 | lr 1e-4");
	assert_null(ln.host);
	/* Open MPI --timestamp-output: ctime glued to the tag */
	parse("Fri Aug 11 12:31:45 2023[1,7]<stdout>:RuntimeError: CUDA error: boom");
	assert_int_equal(ln.rank, 7);
	msg_is("RuntimeError: CUDA error: boom");
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2023);
	assert_int_equal(c.mday, 11);
	assert_int_equal(c.sec, 45);
	parse("Fri Aug  1 09:00:00 2023 [1,2]<stderr>:x");
	assert_int_equal(ln.rank, 2);
	/* horovodrun's rank tag glued to NCCL's own prefix */
	parse("[15]worker-23:83:2526 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from "
	    "10.0.0.1<41468> failed : Connection timed out");
	assert_int_equal(ln.rank, 15);
	assert_int_equal(ln.hostlen, 9);
	assert_memory_equal(ln.host, "worker-23", 9);
	assert_int_equal(ln.pid, 83);
	parse("[15]x: 2 items");	/* a bracket glued to words: no tag */
	assert_int_not_equal(ln.rank_from, RANK_PREFIX);
	parse("trainer-7b-w3 >> [rank1]: ValueError: x");
	assert_int_equal(ln.rank, 1);
	parse("run-a.node-004 [stderr] [rank14]: x");
	assert_int_equal(ln.rank, 14);
	parse(" [rank3]:[E227 16:30:43.100000000 ProcessGroupNCCL.cpp:9] [PG ID 2 PG GUID 7 Rank 1] x");
	assert_int_equal(ln.rank, 3);
	/* a progress bar's spaces, its '\r' lost in a paste */
	parse("                                                                       "
	    "                                                 [rank3]:[E227 16:30:43.100000000 "
	    "ProcessGroupNCCL.cpp:9] x");
	assert_int_equal(ln.rank, 3);
	assert_true(ln.ts.flags & STAMP_TIME);
	parse("                                                            [x for x in y]");
	assert_int_not_equal(ln.rank_from, RANK_PREFIX);
	parse("\033[36m(Worker pid=4009)\033[0m [rank1]: RuntimeError: x");
	assert_int_equal(ln.rank, 1);
	parse("[36m(Worker pid=4009) [rank1]: RuntimeError: x");
	assert_int_equal(ln.rank, 1);
	assert_int_equal(ln.pid, 4009);
	/* a collector's time, then the worker's prefixes and header */
	parse("[2025-05-10 00:18:21] (WorkerDict pid=1230, ip=10.0.0.9) [rank15]:[E510 "
	    "00:18:19.328053719 ProcessGroupNCCL.cpp:629] [PG ID 4 PG GUID 20(mesh_tp) Rank 1] x");
	assert_int_equal(ln.rank, 15);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	msg_is("[PG ID 4 PG GUID 20(mesh_tp) Rank 1] x");
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.year, 2025);
	assert_int_equal(c.sec, 21);
	/* after a header, host-like words are the message */
	parse("[2025-05-10 00:18:21,000] [INFO] [t.py:1:f] 10.0.0.2: connection refused");
	msg_is("10.0.0.2: connection refused");
	parse("[2025-05-10 00:18:21] 10.0.0.2: connection refused");
	msg_is("10.0.0.2: connection refused");
	assert_null(ln.host);
	/* a collector's time alone, then its pod name and " >> " */
	parse("[2025-05-10T00:18:21+08:00] train-0-w3 >> [rank3]: ValueError: x");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_PREFIX);
	assert_int_equal(ln.hostlen, 10);
	assert_memory_equal(ln.host, "train-0-w3", 10);
	msg_is("ValueError: x");
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.sec, 21);
}

/* A summary border, then a launcher label with nothing after it: the
 * summary parser once read the message's first byte anyway. */
static void
test_empty_message_in_summary(void **state)
{
	char *s = malloc(4);

	(void)state;
	parse("======================================================");
	memcpy(s, "4: ", 3);	/* exactly 3 bytes: a read past them is caught by ASan */
	line_parse(&st, s, 3, &ln);
	assert_int_equal(ln.msglen, 0);
	free(s);
}

/* Serving frameworks' loggers. */
static void
test_vllm_and_sglang_headers(void **state)
{
	struct civil c;

	(void)state;
	parse("(VllmWorker rank=3 pid=406) ERROR 07-23 19:34:50 [multiproc_executor.py:487] x");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.sev, 'E');
	msg_is("x");
	stamp_to_civil(ln.ts.sec, &c);
	assert_int_equal(c.mon, 7);
	assert_int_equal(c.mday, 23);
	assert_int_equal(c.min, 34);
	/* vLLM V1's worker names: the tensor-parallel rank, when the worker
	 * is rank 0 of every other group (a group rank, as sglang's) */
	parse("(Worker_TP6 pid=7301) ERROR 11-02 08:15:44 [multiproc_executor.py:611] x");
	assert_int_equal(ln.rank, 6);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	assert_int_equal(ln.pid, 7301);
	assert_int_equal(ln.sev, 'E');
	msg_is("x");
	parse("(Worker_DP0_PP0_TP2_EP2 pid=88) INFO 11-02 08:15:44 [gpu_worker.py:99] x");
	assert_int_equal(ln.rank, 2);
	parse("(Worker_PP1_TP3 pid=88) INFO 11-02 08:15:44 [gpu_worker.py:99] x");
	assert_int_equal(ln.rank, -1);	/* rank 3 of the second stage: PP x TP unknown */
	parse("(Worker_DP2_TP0 pid=88) INFO 11-02 08:15:44 [gpu_worker.py:99] x");
	assert_int_equal(ln.rank, -1);
	parse("(Worker_TPx pid=88) INFO 11-02 08:15:44 [gpu_worker.py:99] x");
	assert_int_equal(ln.rank, -1);
	assert_int_equal(ln.pid, 88);
	/* vLLM 0.10's "VllmWorker TP3", and a worker with its groups' ranks
	 * spelled out: dp_rank= is no Ray rank= */
	parse("(VllmWorker TP3 pid=5120) ERROR 09-03 19:05:48 [multiproc_executor.py:596] x");
	assert_int_equal(ln.rank, 3);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	assert_int_equal(ln.pid, 5120);
	msg_is("x");
	parse("(VllmWorker PP1 TP3 pid=5120) ERROR 09-03 19:05:48 [multiproc_executor.py:596] x");
	assert_int_equal(ln.rank, -1);
	parse("(VllmWorkerProc[dp_rank=0,tp_rank=5] pid=77) INFO 09-03 19:05:48 [w.py:1] x");
	assert_int_equal(ln.rank, 5);
	assert_int_equal(ln.label, -1);
	parse("(VllmWorkerProc[dp_rank=1,tp_rank=5] pid=77) INFO 09-03 19:05:48 [w.py:1] x");
	assert_int_equal(ln.rank, -1);
	parse("(EngineCore_DP0 pid=31) ERROR 09-03 19:05:48 [core.py:700] x");
	assert_int_equal(ln.rank, -1);
	assert_int_equal(ln.pid, 31);
	/* a logged traceback's blank line: the header, then nothing */
	parse("(EngineCore_DP0 pid=31) ERROR 09-03 19:05:48 [core.py:700]");
	assert_int_equal(ln.pid, 31);
	assert_int_equal(ln.sev, 'E');
	msg_is("");
	parse("ERROR 09-03 19:05:48 [core.py:700]x");
	assert_int_equal(ln.sev, 0);
	/* Ray's daemons' lines, and its C++ logger's header: time, level,
	 * pid and thread */
	parse("(raylet, ip=10.0.1.36) [2025-11-20 08:14:04,892 E 18591 18625] (raylet) "
	    "file_system_monitor.cc:116: /tmp/ray is over 95% full");
	assert_int_equal(ln.sev, 'E');
	assert_true(ln.ts.flags & STAMP_TIME);
	msg_is("file_system_monitor.cc:116: /tmp/ray is over 95% full");
	parse("(gcs_server) [2025-11-20 08:14:04,892 W 1 2] gcs_server.cc:1: x");
	assert_int_equal(ln.sev, 'W');
	msg_is("gcs_server.cc:1: x");
	parse("(raylets are fine) x");
	msg_is("(raylets are fine) x");
	/* Determined's trial logs: its time, the container, the rank */
	parse("[2025-04-02T08:15:44.120331Z] 3c9e01ab [rank=5] || RuntimeError: x");
	assert_int_equal(ln.rank, 5);
	msg_is("RuntimeError: x");
	parse("[2025-04-02T08:15:44.120331Z] 3c9e01ab [rank=5] || [rank5]:[E402 08:15:44.1 "
	    "ProcessGroupNCCL.cpp:1](x) y");
	assert_int_equal(ln.rank, 5);
	parse("[2025-04-02T08:15:44.120331Z] 3c9e01zz [rank=5] || x");
	assert_int_equal(ln.rank, -1);
	parse("[2025-03-25 14:34:11 TP10] Scheduler hit an exception: x");
	assert_int_equal(ln.rank, 10);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	msg_is("Scheduler hit an exception: x");
	/* its record's lines with no prefix (the traceback the logger
	 * printed with it) are of that group rank too, and no more than
	 * that; a line of no record ends it */
	parse("[2025-03-25 14:34:11 TP10] Scheduler hit an exception: Traceback (most recent call last):");
	parse("  File \"/x/scheduler.py\", line 3, in run");
	assert_int_equal(ln.rank, 10);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	parse("Exception: Capture cuda graph failed: boom");
	assert_int_equal(ln.rank, 10);
	assert_int_equal(ln.rank_from, RANK_GROUP);
	assert_true(ln.flags & LINE_CONTINUATION);
	parse("Possible solutions:");
	assert_int_equal(ln.rank, -1);
	parse("  1. set --mem-fraction-static lower");
	assert_int_equal(ln.rank, -1);
	/* a header on a line of one record opens none: the traceback after
	 * a progress line is another process's */
	parse("[2025-03-25 14:34:11 TP10] Decode batch, #running-req: 2");
	parse("  File \"/x/driver.py\", line 3, in main");
	assert_int_equal(ln.rank, -1);
	/* a "[Rank 3]" in a message opens none: the traceback after a C++
	 * abort's words is another process's */
	parse("  what():  [Rank 3] Watchdog caught collective operation timeout: x");
	assert_int_equal(ln.rank, 3);
	parse("Traceback (most recent call last):");
	assert_int_equal(ln.rank, -1);
	parse("[2025-03-25 14:34:11 DP1 TP2] y");
	assert_int_equal(ln.rank, 2);
	msg_is("y");
	/* every axis the run has: a pipeline stage other than the first
	 * makes TP a rank within that stage, no rank of the run */
	parse("[2025-03-25 14:34:11 TP2 EP2] y");
	assert_int_equal(ln.rank, 2);
	msg_is("y");
	parse("[2025-03-25 14:34:11 PP0 TP5] y");
	assert_int_equal(ln.rank, 5);
	parse("[2025-03-25 14:34:11 PP1 TP5] Scheduler watchdog timeout x");
	assert_int_equal(ln.rank, -1);
	assert_true(ln.ts.flags & STAMP_TIME);
	msg_is("Scheduler watchdog timeout x");
	parse("[2025-03-25 14:34:11 DP0 ATTN_CP1 TP5] y");
	assert_int_equal(ln.rank, -1);
	msg_is("y");
	parse("[2025-03-25 14:34:11 PP1] y");
	assert_int_equal(ln.rank, -1);
	msg_is("y");
	parse("[2025-03-25 14:34:11 tp2] y");
	msg_is("[2025-03-25 14:34:11 tp2] y");
	parse("[2025-03-25 14:34:11 TP2 y");
	assert_int_equal(ln.rank, -1);
	/* older releases: no '[' before the file */
	parse("ERROR 04-07 00:57:46 worker_base.py:145] RuntimeError: boom");
	assert_int_equal(ln.sev, 'E');
	assert_true(ln.ts.flags & STAMP_TIME);
	msg_is("RuntimeError: boom");
	parse("INFO 04-07 00:57:46 some words here] x");
	msg_is("INFO 04-07 00:57:46 some words here] x");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_degenerate, reset),
		cmocka_unit_test_setup(test_number_limits, reset),
		cmocka_unit_test_setup(test_c10_with_rank_and_time, reset),
		cmocka_unit_test_setup(test_c10_old_shapes, reset),
		cmocka_unit_test_setup(test_excepthook_and_repeated_prefixes, reset),
		cmocka_unit_test_setup(test_plain_host_prefix, reset),
		cmocka_unit_test_setup(test_ignored_exception_record, reset),
		cmocka_unit_test_setup(test_chained_traceback, reset),
		cmocka_unit_test_setup(test_crash_dump_record, reset),
		cmocka_unit_test_setup(test_ucx_head, reset),
		cmocka_unit_test_setup(test_grep_file_name, reset),
		cmocka_unit_test_setup(test_bracket_host, reset),
		cmocka_unit_test_setup(test_torchrun_tee_local_rank, reset),
		cmocka_unit_test_setup(test_slurm_label_mpi_ray, reset),
		cmocka_unit_test_setup(test_glued_after_progress_bar, reset),
		cmocka_unit_test_setup(test_spliced_record_ends_message, reset),
		cmocka_unit_test_setup(test_headers_with_dates, reset),
		cmocka_unit_test_setup(test_level_in_message, reset),
		cmocka_unit_test_setup(test_dates_and_numbers_first, reset),
		cmocka_unit_test_setup(test_glog_and_nccl, reset),
		cmocka_unit_test_setup(test_us_date_header, reset),
		cmocka_unit_test_setup(test_level_then_date_header, reset),
		cmocka_unit_test_setup(test_kernel_log_headers, reset),
		cmocka_unit_test_setup(test_inherited_time_and_records, reset),
		cmocka_unit_test_setup(test_torchrun_summary, reset),
		cmocka_unit_test_setup(test_file_rank_and_group_rank, reset),
		cmocka_unit_test_setup(test_year_guessed_from_mtime, reset),
		cmocka_unit_test_setup(test_pasted_and_collected_prefixes, reset),
		cmocka_unit_test_setup(test_vllm_and_sglang_headers, reset),
		cmocka_unit_test_setup(test_empty_message_in_summary, reset),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
