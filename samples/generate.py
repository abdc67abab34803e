#!/usr/bin/env python3
"""Regenerate the synthetic rankwatch sample runs under samples/<name>/.

Standard library only, deterministic (fixed seeds, fixed dates, no wall
clock): running it twice produces byte-identical files.  Every line is
written from the formats described in the project's log-format reference
(PyTorch c10 logger, ProcessGroupNCCL, NCCL debug output, torchrun, Slurm,
DeepSpeed-style and Python logging headers); nothing is copied from real logs.

File mtimes are set to the time of each file's last line, with the naive
timestamps interpreted as UTC (see samples/README.md).

Usage:  python3 samples/generate.py
"""

import calendar
import datetime as dtm
import os
import random
import shutil

ROOT = os.path.dirname(os.path.abspath(__file__))
D = dtm.datetime
S = dtm.timedelta

SAMPLES = ["fsdp-shape-hang", "nccl-version-mismatch", "oom-collateral",
           "silent-rank-hang", "ddp-bucket-slow"]

SITE = "/usr/local/lib/python3.11/site-packages"
H100_BUS = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
AFFINITY = ["ffffffff,00000000,ffffffff", "ffffffff,00000000,ffffffff",
            "ffffffff,00000000,ffffffff", "ffffffff,00000000,ffffffff",
            "ffffffff,00000000,ffffffff,00000000", "ffffffff,00000000,ffffffff,00000000",
            "ffffffff,00000000,ffffffff,00000000", "ffffffff,00000000,ffffffff,00000000"]


# --------------------------------------------------------------------------
# formatting helpers
# --------------------------------------------------------------------------

def pylog(t, level, loc, msg):
    """Python logging: '%(asctime)s %(levelname)s %(filename)s:%(lineno)d %(message)s'."""
    return "%s,%03d %s %s %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000,
                                 level, loc, msg)


def dslog(t, level, loc, msg):
    """DeepSpeed logger: '[%(asctime)s] [%(levelname)s] [%(filename)s:%(lineno)d:%(funcName)s] %(message)s'."""
    return "[%s,%03d] [%s] [%s] %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000,
                                       level, loc, msg)


def agentlog(t, sev, pid, path, msg):
    """torch._logging / elastic agent (2.4+): 'W0817 02:40:09.311000 17860 path:719] msg'.
    Every line of a multi-line message carries the header."""
    hdr = "%s%02d%02d %s.%06d %d %s] " % (sev, t.month, t.day, t.strftime("%H:%M:%S"),
                                           (t.microsecond // 1000) * 1000, pid, path)
    return [hdr + ln for ln in msg.split("\n")]


# torchrun's warning when it sets OMP_NUM_THREADS for its workers.
OMP_BANNER = ("\n*****************************************\n"
              "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
              "system being overloaded, please further tune the variable for optimal performance in your "
              "application as needed. \n*****************************************")


def omp_warning(t, pid, line):
    """The elastic agent's OMP_NUM_THREADS warning, logged from torch/distributed/run.py:line."""
    return agentlog(t, "W", pid, "torch/distributed/run.py:%d" % line, OMP_BANNER)


def hex12(rng):
    return "0x%012x" % (0x550000000000 + rng.randrange(0x0fffffffff) * 0x10)


def hex16(rng):
    return "0x%016x" % rng.randrange(1 << 60, 1 << 64)


class Proc:
    """One training process (one rank)."""

    def __init__(self, rank, local_rank, host, pid, rng, world):
        self.rank = rank
        self.lr = local_rank
        self.host = host
        self.pid = pid
        self.rng = rng
        self.world = world
        self.mono = rng.randrange(10 ** 9)        # CLOCK_MONOTONIC offset
        # thread ids are unique per host: keep each process's threads in its own range
        self.init_tid = pid + 1000 + 97 * local_rank + rng.randrange(10)
        self.wd_tid = pid + 2000 + 97 * local_rank + rng.randrange(10)
        self.proxy_tid = pid + 3000 + 97 * local_rank + rng.randrange(10)
        self.base_c10 = 0x7f0000000000 + rng.randrange(0xffffff) * 0x1000   # libc10.so load address
        self.base_tc = self.base_c10 - 0x4a000000 - rng.randrange(0xff) * 0x1000  # libtorch_cuda.so

    # c10 MessageLogger header (non-glog, 2.4+): unpadded month*100+day,
    # 9-digit fraction taken from CLOCK_MONOTONIC (not aligned to the wall second)
    def c10(self, t, sev, src, msg, rank_prefix=True):
        ns = (t.microsecond * 1000 + self.rng.randrange(1000) + self.mono) % 10 ** 9
        pre = ("[rank%d]:" % self.rank) if rank_prefix else ""
        return "%s[%s%d %s.%09d %s] %s" % (pre, sev, t.month * 100 + t.day,
                                          t.strftime("%H:%M:%S"), ns, src, msg)

    def ni(self, msg, tid=None):
        return "%s:%d:%d [%d] NCCL INFO %s" % (self.host, self.pid, tid or self.pid, self.lr, msg)

    def nwarn(self, src, msg, tid=None, ts=None):
        """NCCL WARN: always preceded by an empty line; timestamp only for NCCL >= 2.26."""
        pre = ("[%s] " % ts.strftime("%Y-%m-%d %H:%M:%S")) if ts else ""
        return ["", "%s%s:%d:%d [%d] %s NCCL WARN %s" % (pre, self.host, self.pid,
                                                        tid or self.pid, self.lr, src, msg)]

    def hook(self, lines):
        """Python excepthook of torch.distributed (2.3+): '[rankN]: ' on every non-empty line."""
        return [("[rank%d]: %s" % (self.rank, l)) if l else "" for l in lines]


class Log:
    """Collects timestamped blocks of lines per (rank, stream)."""

    def __init__(self):
        self.blocks = []
        self.n = 0

    def add(self, t, rank, stream, lines):
        if isinstance(lines, str):
            lines = [lines]
        self.blocks.append((t, self.n, rank, stream, list(lines)))
        self.n += 1

    def for_rank(self, rank, streams=None):
        bl = [b for b in self.blocks if b[2] == rank and (streams is None or b[3] in streams)]
        bl.sort(key=lambda b: (b[0], b[1]))
        return bl

    def merged(self, ranks=None):
        bl = [b for b in self.blocks if ranks is None or b[2] in ranks]
        bl.sort(key=lambda b: (b[0], b[1]))
        return bl


def write(path, lines, last_t, raw_tail=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(l + "\n" for l in lines) + raw_tail
    with open(path, "wb") as f:
        f.write(data.encode("utf-8"))
    epoch = calendar.timegm(last_t.timetuple())
    os.utime(path, (epoch, epoch))


def blocks_to_lines(blocks):
    out = []
    for b in blocks:
        out.extend(b[4])
    return out


def last_time(blocks):
    return max(b[0] for b in blocks)


def write_truth(name, verdict, initiating, suspect, entry):
    path = os.path.join(ROOT, name + ".truth")
    with open(path, "wb") as f:
        f.write(("verdict: %s\ninitiating: %s\nfirst_suspect: %s\nfirst_entry: %s\n"
                 % (verdict, initiating, suspect, entry)).encode())
    # the truth file is not a log; give it a fixed mtime too so reruns are identical
    epoch = calendar.timegm(D(2025, 1, 1).timetuple())
    os.utime(path, (epoch, epoch))


# --------------------------------------------------------------------------
# shared content builders
# --------------------------------------------------------------------------

def nccl_init(p, t, rng, *, ver, nranks, comm_rank, hosts_of_rank, first_in_proc,
              print_version, fn, channels, iface, ip, driver, start_line=True, complete=True):
    """NCCL_DEBUG=INFO lines of one communicator init on one process (to stdout).
    Returns (lines, comm_ptr)."""
    L = []
    if first_in_proc:
        L.append(p.ni("Bootstrap : Using %s:%s<0>" % (iface, ip)))
        if ver.startswith("2.18"):
            L.append(p.ni("NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: "
                          "No such file or directory No plugin found (libnccl-net.so), using internal implementation"))
        else:
            L.append(p.ni("NET/Plugin: No plugin found (libnccl-net.so)"))
            L.append(p.ni("NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object "
                          "file: No such file or directory : when loading libnccl-net.so"))
            L.append(p.ni("NET/Plugin: Using internal network plugin."))
        L.append(p.ni("cudaDriverVersion %d" % driver))
    if print_version:
        L.append("NCCL version %s" % ver)          # bare printf, comm rank 0 only
    tid = p.init_tid
    comm = hex12(rng)
    commid = hex16(rng)
    bus = H100_BUS[p.lr]
    multinode = len(set(hosts_of_rank)) > 1
    if first_in_proc:
        L.append(p.ni("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; "
                      "OOB %s:%s<0>" % (iface, ip), tid))
        if not ver.startswith("2.18"):
            L.append(p.ni("Using non-device net plugin version 0", tid))
        L.append(p.ni("Using network IB", tid))
    if ver.startswith("2.18"):
        ident = "comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s" % (
            comm, comm_rank, nranks, p.lr, p.lr, bus, commid)
    else:
        ident = "%s comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s" % (
            fn, comm, comm_rank, nranks, p.lr, p.lr, bus, commid)
    if start_line and not ver.startswith("2.18"):
        L.append(p.ni(ident + " - Init START", tid))
    if not complete:
        return L, comm
    nnodes = len(set(hosts_of_rank))
    local_ranks = nranks // nnodes
    if not ver.startswith("2.18"):
        L.append(p.ni("comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0" % (
            comm, comm_rank, nranks, nnodes, local_ranks, comm_rank % local_ranks), tid))
    L.append(p.ni("Setting affinity for GPU %d to %s" % (p.lr, AFFINITY[p.lr]), tid))
    if comm_rank == 0:
        order = " ".join("%4d" % r for r in range(nranks))
        for c in range(channels):
            L.append(p.ni("Channel %02d/%02d : %s" % (c, channels, order), tid))
    nxt = (comm_rank + 1) % nranks
    prv = (comm_rank - 1) % nranks
    L.append(p.ni("Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d" % (
        nxt if nxt else -1, comm_rank, prv if comm_rank else -1,
        nxt if nxt else -1, comm_rank, prv if comm_rank else -1), tid))
    L.append(p.ni("P2P Chunksize set to 524288", tid))
    for c in range(min(channels, 4)):
        if multinode and hosts_of_rank[nxt] != hosts_of_rank[comm_rank]:
            L.append(p.ni("Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA" % (
                c, comm_rank, p.lr, nxt, nxt % local_ranks, c % 4), p.proxy_tid))
        else:
            L.append(p.ni("Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (
                c, comm_rank, p.lr, nxt, nxt % local_ranks), tid))
    L.append(p.ni("Connected all rings", tid))
    L.append(p.ni("Connected all trees", tid))
    L.append(p.ni("threadThresholds 8/8/64 | %d/8/64 | 512 | 512" % (8 * nranks), tid))
    L.append(p.ni("%d coll channels, 0 collnet channels, 0 nvls channels, %d p2p channels, %d p2p channels per peer"
                  % (channels, channels, max(1, channels // 4)), tid))
    L.append(p.ni(ident + " - Init COMPLETE", tid))
    return L, comm


# The bottom of every watchdog thread's stack: libstdc++'s thread start, libc.
THREAD_FRAMES = [
    ("<unknown function> + 0xdc253", 0x7f3a1f8b0253, "/lib/x86_64-linux-gnu/libstdc++.so.6"),
    ("<unknown function> + 0x94ac3", 0x7f3a2063cac3, "/lib/x86_64-linux-gnu/libc.so.6"),
    ("clone + 0x44", 0x7f3a206cd850, "/lib/x86_64-linux-gnu/libc.so.6"),
]


def frame_lines(fr, lib):
    """c10's 'frame #N: fn (0xaddr in path)' lines, then the blank line after them;
    a library without a path is one of torch's."""
    L = []
    for i, (fn, addr, so) in enumerate(fr):
        path = so if so.startswith("/") else "%s/torch/lib/%s" % (lib, so)
        L.append("frame #%d: %s (0x%x in %s)" % (i, fn, addr, path))
    L.append("")
    return L


def frames_watchdog(p, lib, src_prefix, what, line):
    base_c10 = p.base_c10
    base_tc = p.base_tc
    L = ["Exception raised from %s at %s/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:%d "
         "(most recent call first):" % (what, src_prefix, line)]
    if what == "checkTimeout":
        fr = [
            ("c10::Error::Error(c10::SourceLocation, std::string) + 0x96", base_c10 + 0x96f86, "libc10.so"),
            ("c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, "
             "std::ratio<1l, 1000l> > >) + 0x1d2", base_tc + 0x10f8d2, "libtorch_cuda.so"),
            ("c10d::ProcessGroupNCCL::watchdogHandler() + 0x233", base_tc + 0x116313, "libtorch_cuda.so"),
            ("c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d", base_tc + 0x11771d, "libtorch_cuda.so"),
        ]
    else:
        fr = [
            ("c10::Error::Error(c10::SourceLocation, std::string) + 0x96", base_c10 + 0x96f86, "libc10.so"),
            ("<unknown function> + 0xe5aa84", base_tc + 0xe5aa84, "libtorch_cuda.so"),
        ]
    return L + frame_lines(fr + THREAD_FRAMES, lib)


def watchdog_teardown(p, t, rng, *, style, seq, op, nin, nout, timeout_ms, ran_ms,
                      enq, done, lines_no, dump=True):
    """c10 lines of a ProcessGroupNCCL watchdog timeout and the abort that follows.
    style '2.4': '[PG 0 (default_pg) Rank N]' + 'Exception (either ...) detected by watchdog at work'
    style '2.6': '[PG ID 0 PG GUID 0(default_pg) Rank N]' + ' failure detected by watchdog at work sequence id'
    Returns list of (time, [lines])."""
    src = "/pytorch" if style == "2.6" else ".."
    lib = SITE
    pre = ("[PG ID 0 PG GUID 0(default_pg) Rank %d] " if style == "2.6"
           else "[PG 0 (default_pg) Rank %d] ") % p.rank
    work = "WorkNCCL(SeqNum=%d, OpType=%s, NumelIn=%d, NumelOut=%d, Timeout(ms)=%d)" % (
        seq, op, nin, nout, timeout_ms)
    caught = "[Rank %d] Watchdog caught collective operation timeout: %s ran for %d milliseconds before timing out." % (
        p.rank, work, ran_ms)
    out = []
    t0 = t
    out.append((t0, [p.c10(t0, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[0], caught)]))
    t1 = t0 + S(microseconds=4100 + rng.randrange(900))
    if style == "2.6":
        out.append((t1, [p.c10(t1, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[1],
                               pre + " failure detected by watchdog at work sequence id: %d PG status: "
                               "last enqueued work: %d, last completed work: %d" % (seq, enq, done))]))
    else:
        out.append((t1, [p.c10(t1, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[1],
                               pre + "Exception (either an error or timeout) detected by watchdog at work: %d, "
                               "last enqueued NCCL work: %d, last completed NCCL work: %d." % (seq, enq, done))]))
    t2 = t1 + S(microseconds=300 + rng.randrange(400))
    if dump:
        out.append((t2, [p.c10(t2, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[2],
                               pre + "First PG on this rank to signal dumping.")]))
        t3 = t2 + S(microseconds=2100 + rng.randrange(900))
        out.append((t3, [
            p.c10(t3, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[3],
                  pre + "Received a dump signal due to a collective timeout from this local rank and we will "
                  "try our best to dump the debug info. Last enqueued NCCL work: %d, last completed NCCL work: %d."
                  "This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across "
                  "ranks, the order of collectives is not same for all ranks or the scheduled collective, for some "
                  "reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as "
                  "network errors or bugs in the communications library (e.g. NCCL), etc. " % (enq, done)),
            p.c10(t3 + S(microseconds=50), "E", "ProcessGroupNCCL.cpp:%d" % lines_no[4],
                  pre + "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1, "
                  "only active collectives: 0")]))
        t4 = t3 + S(seconds=60, microseconds=190000 + rng.randrange(20000))
    else:
        t4 = t2
    out.append((t4, [
        p.c10(t4, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[5],
              "[Rank %d] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA "
              "kernels, subsequent GPU operations might run on corrupted/incomplete data." % p.rank),
        p.c10(t4 + S(microseconds=21), "E", "ProcessGroupNCCL.cpp:%d" % lines_no[6],
              "[Rank %d] To avoid data inconsistency, we are taking the entire process down." % p.rank)]))
    t5 = t4 + S(microseconds=2300 + rng.randrange(700))
    fr1 = frames_watchdog(p, lib, src, "checkTimeout", lines_no[0] + 3)
    term = pre + "Process group watchdog thread terminated with exception: " + caught
    blk = [p.c10(t5, "E", "ProcessGroupNCCL.cpp:%d" % lines_no[7], term)] + fr1
    blk += ["terminate called after throwing an instance of 'c10::DistBackendError'",
            "  what():  " + term] + fr1[:-1]
    blk += frames_watchdog(p, lib, src, "ncclCommWatchdog", lines_no[7] + 6)[:-1]
    blk.append("")
    out.append((t5, blk))
    return out


def destroy_warning(p, t, line):
    return p.c10(t, "W", "ProcessGroupNCCL.cpp:%d" % line,
                 "Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. "
                 "On normal program exit, the application should call destroy_process_group to ensure that any "
                 "pending NCCL operations have finished in this process. In rare cases this process can exit "
                 "before this point and block the progress of another member of the process group. This "
                 "constraint has always been present,  but this warning has only been added since PyTorch 2.4 "
                 "(function operator())")


# --------------------------------------------------------------------------
# 1. fsdp-shape-hang: torchrun --log-dir, 1 node x 8, PyTorch 2.6 wheel
# --------------------------------------------------------------------------

def gen_fsdp_shape_hang():
    name = "fsdp-shape-hang"
    rng = random.Random(1001)
    host = "trn-h100-017"
    W = 8
    base = os.path.join(ROOT, name, "none_k3j2x9qa", "attempt_0")
    log = Log()
    procs = [Proc(r, r, host, 211840 + 17 * r + rng.randrange(5), rng, W) for r in range(W)]
    t_start = D(2025, 2, 3, 14, 2, 17, 310000)
    loc = "train_fsdp.py"
    for p in procs:
        t = t_start + S(milliseconds=rng.randrange(400))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":61", "rank %d/%d local_rank %d on %s, device cuda:%d"
                                        % (p.rank, W, p.lr, host, p.lr)))
        t += S(milliseconds=3)
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":64", "torch 2.6.0+cu124, cuda 12.4, nccl (2, 21, 5)"))
        t += S(seconds=1, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":88", "loading tokenizer from /datasets/tok/llama3-128k"))
        t += S(seconds=2, milliseconds=rng.randrange(500))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":102", "building model llama-1.4b (24 layers, d_model 2048)"))
        t += S(seconds=4, milliseconds=rng.randrange(900))
        log.add(t, p.rank, "err", [
            "%s/torch/utils/checkpoint.py:1399: FutureWarning: `torch.cpu.amp.autocast(args...)` is deprecated. "
            "Please use `torch.amp.autocast('cpu', args...)` instead." % SITE,
            "  with device_autocast_ctx, torch.cpu.amp.autocast(**cpu_autocast_kwargs), recompute_context:  "
            "# type: ignore[attr-defined]"])
        t += S(milliseconds=200 + rng.randrange(200))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank,
                             hosts_of_rank=[host] * W, first_in_proc=True, print_version=(p.rank == 0),
                             fn="ncclCommInitRank", channels=8, iface="eth0", ip="10.40.7.%d" % 117,
                             driver=12040)
        log.add(t, p.rank, "out", lines)
        t += S(seconds=1, milliseconds=rng.randrange(200))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":131", "FSDP wrapped: FULL_SHARD, 24 decoder blocks, "
                                        "mixed precision bf16, sharded params 175.4M per rank"))
    # training: 3 epochs of 300 steps, hang at epoch-3 start (epoch boundary)
    steps_per_epoch = 300
    t_train = D(2025, 2, 3, 14, 2, 41, 0)
    step_ms = 618.0
    seq_base = 96                      # collectives issued during init
    per_step = 72                      # 24 all-gathers fwd + 24 bwd + 24 reduce-scatters
    losses = {}
    loss = 10.81
    for s in range(1, 2 * steps_per_epoch + 1):
        loss = loss * 0.9957 + 0.0112 + rng.uniform(-0.03, 0.03)
        losses[s] = max(loss, 2.1)
    t_epoch = {}
    tq = []  # rank-0 tqdm stream (stderr, \r-glued)
    t = t_train
    for ep in (1, 2):
        t_epoch[ep] = t
        tq.append((t, "Epoch %d:   0%%|          | 0/%d [00:00<?, ?it/s]" % (ep, steps_per_epoch)))
        for p in procs:
            tt = t + S(milliseconds=rng.randrange(30))
            log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":170", "epoch %d start | shard %d/%d | seq_len 2048 | "
                                             "batches %d" % (ep, p.rank, W, steps_per_epoch)))
        for k in range(1, steps_per_epoch + 1):
            s = (ep - 1) * steps_per_epoch + k
            t = t + S(milliseconds=step_ms + rng.uniform(-12, 12))
            if k % 10 == 0:
                el = (t - t_epoch[ep]).total_seconds()
                rem = el / k * (steps_per_epoch - k)
                frac = k / steps_per_epoch
                nb = int(frac * 10)
                part = int((frac * 10 - nb) * 8)
                bar = "\u2588" * nb
                if nb < 10:
                    bar += (" \u258f\u258e\u258d\u258c\u258b\u258a\u2589"[part])
                bar = bar.ljust(10)
                tq.append((t, "Epoch %d: %3d%%|%s| %d/%d [%02d:%02d<%02d:%02d,  %.2fit/s]" % (
                    ep, int(frac * 100), bar, k, steps_per_epoch, el // 60, el % 60, rem // 60, rem % 60,
                    1000.0 / step_ms)))
            if k % 5 == 0:
                for p in procs:
                    tt = t + S(milliseconds=rng.randrange(15))
                    ms = step_ms + rng.uniform(-9, 9)
                    log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":214", "step %d/%d | loss %.4f | %.1f ms/step"
                                                     % (s, 15 * steps_per_epoch, losses[s] + rng.uniform(-.02, .02), ms)))
        t += S(milliseconds=40)
        tq.append((t, None))  # close bar -> newline
        # end of epoch: checkpoint
        for p in procs:
            tt = t + S(milliseconds=rng.randrange(40))
            log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":240", "epoch %d done | mean loss %.4f" % (ep, losses[ep * steps_per_epoch])))
        t += S(seconds=7, milliseconds=420)
        for p in procs:
            tt = t + S(milliseconds=rng.randrange(40))
            log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":252", "saved sharded checkpoint "
                                             "/ckpt/llama-1.4b/epoch%d/__%d_0.distcp" % (ep, p.rank)))
        t += S(milliseconds=500)
    # epoch 3 begins; rank 5 gets seq_len 2040 -> its all-gather has a different size
    t_epoch[3] = t
    tq.append((t, "Epoch 3:   0%%|          | 0/%d [00:00<?, ?it/s]" % steps_per_epoch))
    for p in procs:
        tt = t + S(milliseconds=rng.randrange(30))
        sl = 2040 if p.rank == 5 else 2048
        log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":170", "epoch 3 start | shard %d/%d | seq_len %d | "
                                         "batches %d" % (p.rank, W, sl, steps_per_epoch)))
    seq = seq_base + 2 * steps_per_epoch * per_step + 1
    t_enq = t + S(milliseconds=180)
    for p in procs:
        sl = 2040 if p.rank == 5 else 2048
        nin = 8 * sl
        ran = 600000 + 40 + rng.randrange(30)
        tw = t_enq + S(milliseconds=ran + rng.randrange(5))
        for (tb, lines) in watchdog_teardown(p, tw, rng, style="2.6", seq=seq, op="_ALLGATHER_BASE",
                                             nin=nin, nout=nin * W, timeout_ms=600000, ran_ms=ran,
                                             enq=seq + 1, done=seq - 1,
                                             lines_no=(632, 2168, 2421, 1706, 1440, 665, 671, 1908)):
            log.add(tb, p.rank, "err", lines)
    # write files
    for p in procs:
        d = os.path.join(base, str(p.lr))
        ob = log.for_rank(p.rank, ("out",))
        write(os.path.join(d, "stdout.log"), blocks_to_lines(ob), last_time(ob))
        eb = log.for_rank(p.rank, ("err",))
        lines = blocks_to_lines(eb)
        if p.rank != 0:
            write(os.path.join(d, "stderr.log"), lines, last_time(eb))
            continue
        # rank 0: tqdm writes '\r'+bar without newline; the first c10 line of the timeout is glued to the bar
        warn_blocks = [b for b in eb if b[0] < t_train]
        rest = [b for b in eb if b[0] >= t_train]
        text = "".join(l + "\n" for l in blocks_to_lines(warn_blocks))
        for (tt, bar) in tq:
            text += "\n" if bar is None else "\r" + bar
        text += "".join(l + "\n" for l in blocks_to_lines(rest))
        path = os.path.join(d, "stderr.log")
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        ep_ = calendar.timegm(last_time(eb).timetuple())
        os.utime(path, (ep_, ep_))
    write_truth(name, "hang", "none", "5", "fsdp-shape-mismatch-hang")


# --------------------------------------------------------------------------
# 2. nccl-version-mismatch: srun --output=%x-%j-%t.out, 2 nodes x 4
# --------------------------------------------------------------------------

def gen_nccl_version_mismatch():
    name = "nccl-version-mismatch"
    rng = random.Random(2002)
    W = 8
    hosts = ["gpu-a01"] * 4 + ["gpu-a02"] * 4
    ips = {"gpu-a01": "10.18.4.21", "gpu-a02": "10.18.4.22"}
    ver = {"gpu-a01": "2.21.5+cuda12.4", "gpu-a02": "2.18.3+cuda12.1"}
    vtuple = {"gpu-a01": "(2, 21, 5)", "gpu-a02": "(2, 18, 3)"}
    drv = {"gpu-a01": 12040, "gpu-a02": 12020}
    log = Log()
    procs = []
    for r in range(W):
        pid = (48211 + 2 * r) if r < 4 else (31415 + 3 * (r - 4))
        procs.append(Proc(r, r % 4, hosts[r], pid, rng, W))
    p4 = procs[4]
    p4.init_tid = 31502
    loc = "train.py"
    t0 = D(2024, 6, 12, 10, 3, 9, 0)
    for p in procs:
        t = t0 + S(milliseconds=400 + rng.randrange(900))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":52", "starting rank %d/%d (local_rank %d) on %s, "
                                      "SLURM_JOB_ID=81234" % (p.rank, W, p.lr, p.host)))
        t += S(milliseconds=2)
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":55", "torch 2.4.1+cu124 | cuda 12.4 | nccl %s | python 3.11.9"
                                      % vtuple[p.host]))
        t += S(milliseconds=800 + rng.randrange(300))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":71", "MASTER_ADDR=gpu-a01 MASTER_PORT=29500 WORLD_SIZE=8 "
                                      "NCCL_DEBUG=INFO NCCL_IB_HCA=mlx5"))
        t += S(milliseconds=5)
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":88", "init_process_group(backend='nccl', "
                                      "timeout=0:10:00) ..."))
        t += S(seconds=2, milliseconds=rng.randrange(400))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":92", "process group ready in %.2f s" % (2 + rng.random())))
        t += S(seconds=3, milliseconds=rng.randrange(900))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":104", "loading dataset index /lustre/corpora/pile-dedup/"
                                      "index-1842.json (1842 shards)"))
        t += S(seconds=6, milliseconds=rng.randrange(900))
        for i in range(0, 1842, 92):
            log.add(t, p.rank, "o", pylog(t, "INFO", "data.py:211", "mapped shards %d-%d (%d samples)"
                                          % (i, min(1841, i + 91), 92 * 4096 + rng.randrange(900))))
            t += S(milliseconds=180 + rng.randrange(60))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":118", "building model gpt-1.3b (24 layers, 16 heads, "
                                      "d_model 2048): 1315.8M params"))
        t += S(seconds=3, milliseconds=rng.randrange(300))
        if p.rank == 0:
            log.add(t, p.rank, "o", [
                "%s/torch/nn/modules/transformer.py:307: UserWarning: enable_nested_tensor is True, but "
                "self.use_nested_tensor is False because encoder_layer.self_attn.batch_first was not True(use "
                "batch_first for better inference performance)" % SITE,
                "  warnings.warn(f\"enable_nested_tensor is True, but self.use_nested_tensor is False because "
                "{why_not_sparsity_fast_path}\")"])
    # node-local groups: barrier on dist.new_group(ranks of node) -> first NCCL init per process
    t_local = D(2024, 6, 12, 10, 3, 41, 500000)
    for p in procs:
        t = t_local + S(milliseconds=rng.randrange(40))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":131", "node-local group barrier (ranks %s)"
                                      % ("0-3" if p.rank < 4 else "4-7")))
        t += S(milliseconds=60)
        lines, _ = nccl_init(p, t, rng, ver=ver[p.host], nranks=4, comm_rank=p.lr,
                             hosts_of_rank=[p.host] * 4, first_in_proc=True, print_version=(p.lr == 0),
                             fn="ncclCommInitRankConfig", channels=4, iface="ib0", ip=ips[p.host],
                             driver=drv[p.host])
        log.add(t, p.rank, "o", lines)
        t += S(milliseconds=900 + rng.randrange(100))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":136", "node-local barrier ok"))
    # DDP construction -> _verify_param_shape_across_processes -> world communicator init (bootstrap)
    t_ddp = D(2024, 6, 12, 10, 4, 14, 300000)
    tb = "/workspace/pretrain"
    common_tb = [
        "Traceback (most recent call last):",
        "  File \"%s/train.py\", line 214, in <module>" % tb,
        "    main()",
        "  File \"%s/train.py\", line 147, in main" % tb,
        "    model = DDP(model, device_ids=[local_rank], bucket_cap_mb=100, gradient_as_bucket_view=True)",
        "  File \"%s/torch/nn/parallel/distributed.py\", line 825, in __init__" % SITE,
        "    _verify_param_shape_across_processes(self.process_group, parameters)",
        "  File \"%s/torch/distributed/utils.py\", line 288, in _verify_param_shape_across_processes" % SITE,
        "    return dist._verify_params_across_processes(process_group, tensors, logger)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]
    for p in procs:
        t = t_ddp + S(milliseconds=rng.randrange(60))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":145", "wrapping model in DDP"))
        t += S(milliseconds=30)
        lines, _ = nccl_init(p, t, rng, ver=ver[p.host], nranks=8, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=False, print_version=False, fn="ncclCommInitRankConfig",
                             channels=4, iface="ib0", ip=ips[p.host], driver=drv[p.host], complete=False)
        log.add(t, p.rank, "o", lines)
    # rank 4 (2.18.3) receives the 2.21.5 peer-info from rank 3 -> size mismatch
    t4 = D(2024, 6, 12, 10, 4, 17, 612000)
    L = p4.nwarn("bootstrap.cc:150", "Message truncated : received 4144 bytes instead of 4136", tid=31502)
    L += [p4.ni("bootstrap.cc:385 -> 3", 31502), p4.ni("init.cc:873 -> 3", 31502),
          p4.ni("init.cc:1358 -> 3", 31502), p4.ni("group.cc:64 -> 3 [Async thread]", 31502),
          p4.ni("group.cc:418 -> 3", p4.pid), p4.ni("init.cc:1748 -> 3", p4.pid)]
    log.add(t4, 4, "o", L)
    t = t4 + S(milliseconds=9)
    log.add(t, 4, "o", p4.hook(common_tb + [
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
        "internal error - please report this issue to the NCCL developers, NCCL version 2.18.3",
        "ncclInternalError: Internal check failed.",
        "Last error:",
        "Message truncated : received 4144 bytes instead of 4136"]))
    t += S(milliseconds=412)
    log.add(t, 4, "o", destroy_warning(p4, t, 1168))
    exit_t = {4: t + S(milliseconds=300)}
    # the others: their bootstrap ring sockets to rank 4 are closed
    for p in procs:
        if p.rank == 4:
            continue
        dly = {3: 0.92, 5: 0.97}.get(p.rank, 1.15 + 0.05 * p.rank + rng.random() * 0.3)
        t = t4 + S(seconds=dly)
        # bootstrap ring: rank 3 sends to rank 4, the others lose the socket to their previous ring peer
        peer_rank = 4 if p.rank == 3 else (p.rank - 1) % W
        peer = ips[hosts[peer_rank]] + "<%d>" % (39121 + p.rank * 7)
        v = ver[p.host].split("+")[0]
        if v.startswith("2.18"):
            L = p.nwarn("misc/socket.cc:47", "socketProgress: Connection closed by remote peer %s" % peer, p.init_tid)
        else:
            L = p.nwarn("misc/socket.cc:50", "socketProgress: Connection closed by remote peer %s" % peer, p.init_tid)
        L += [p.ni("misc/socket.cc:752 -> 6", p.init_tid), p.ni("bootstrap.cc:92 -> 6", p.init_tid),
              p.ni("bootstrap.cc:389 -> 6", p.init_tid), p.ni("init.cc:873 -> 6", p.init_tid),
              p.ni("init.cc:1358 -> 6", p.init_tid), p.ni("group.cc:64 -> 6 [Async thread]", p.init_tid),
              p.ni("group.cc:418 -> 6", p.pid), p.ni("init.cc:1748 -> 6", p.pid)]
        log.add(t, p.rank, "o", L)
        t += S(milliseconds=7 + rng.randrange(5))
        log.add(t, p.rank, "o", p.hook(common_tb + [
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
            "remote process exited or there was a network error, NCCL version %s" % v,
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            "Last error:",
            "socketProgress: Connection closed by remote peer %s" % peer]))
        t += S(milliseconds=380 + rng.randrange(60))
        log.add(t, p.rank, "o", destroy_warning(p, t, 1168))
        exit_t[p.rank] = t + S(milliseconds=250)
    for p in procs:
        bl = log.for_rank(p.rank)
        write(os.path.join(ROOT, name, "pretrain-81234-%d.out" % p.rank), blocks_to_lines(bl), last_time(bl))
    # batch script output (srun's own messages go here, not to the per-task files)
    tb0 = D(2024, 6, 12, 10, 3, 2, 0)
    tend = max(exit_t.values()) + S(seconds=1)
    batch = [
        "Wed Jun 12 10:03:02 UTC 2024",
        "job 81234 (pretrain) on gpu-a[01-02]: 2 nodes, 8 tasks, 4 GPUs per node",
        "MASTER_ADDR=gpu-a01 MASTER_PORT=29500",
        "launching: srun --output=%x-%j-%t.out python -u train.py --config configs/gpt-1.3b.yaml",
        "srun: error: gpu-a02: task 4: Exited with exit code 1",
        "srun: error: gpu-a01: tasks 0-3: Exited with exit code 1",
        "srun: error: gpu-a02: tasks 5-7: Exited with exit code 1",
        "job finished with status 1 at %s" % tend.strftime("%a %b %d %H:%M:%S UTC %Y"),
    ]
    write(os.path.join(ROOT, name, "slurm-81234.out"), batch, tend)
    write_truth(name, "failure", "4", "4", "nccl-version-mismatch")


# --------------------------------------------------------------------------
# 3. oom-collateral: one combined srun --label log, 16 tasks on 2 nodes
# --------------------------------------------------------------------------

def gen_oom_collateral():
    name = "oom-collateral"
    rng = random.Random(3003)
    W = 16
    hosts = ["gpu-b07"] * 8 + ["gpu-b08"] * 8
    ips = {"gpu-b07": "10.22.1.107", "gpu-b08": "10.22.1.108"}
    log = Log()
    procs = [Proc(r, r % 8, hosts[r], (60312 if r < 8 else 58807) + 3 * (r % 8) + rng.randrange(2), rng, W)
             for r in range(W)]
    loc = "pretrain.py"
    t0 = D(2024, 6, 18, 11, 20, 11, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(1500))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":40", "rank %d/%d on %s (local_rank %d) torch 2.4.0+cu121"
                                      % (p.rank, W, p.host, p.lr)))
        t += S(seconds=3, milliseconds=rng.randrange(800))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":77", "model llama-7b: 6738.4M params, activation "
                                      "checkpointing off, micro batch 4 x 4096 tokens"))
        t += S(seconds=1, milliseconds=rng.randrange(300))
        lines, _ = nccl_init(p, t, rng, ver="2.20.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=4, iface="ens1f0", ip=ips[p.host], driver=12040)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=2, milliseconds=rng.randrange(400))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":96", "DDP ready, resuming from /ckpt/llama7b/step_40000"))
    # training: step 40001.. ~1.1 s/step until 12:03:01
    t = D(2024, 6, 18, 11, 20, 44, 0)
    step = 40000
    t_oom = D(2024, 6, 18, 12, 3, 1, 187000)
    loss = 2.171
    while True:
        nt = t + S(milliseconds=1098 + rng.randrange(30))
        if nt >= t_oom - S(milliseconds=900):
            break
        t = nt
        step += 1
        loss += rng.uniform(-0.012, 0.0115)
        if step % 10 == 0:
            log.add(t, 0, "o", pylog(t, "INFO", loc + ":188", "step %d | loss %.4f | lr 1.92e-04 | grad_norm %.3f | "
                                     "%.1f ms/step | %.1f TFLOP/s" % (step, loss, 0.8 + rng.random() * 0.2,
                                                                      1098 + rng.uniform(0, 30), 402 + rng.uniform(-4, 4))))
        if step % 50 == 0:
            for p in procs:
                tt = t + S(milliseconds=5 + rng.randrange(40))
                mem = 61.2 + rng.uniform(-0.3, 0.3) + (9.0 if p.rank == 11 else 0) + step * 0.00001
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":201", "step %d | max_mem_allocated %.2f GiB | "
                                               "tokens/s %d" % (step, mem, 14900 + rng.randrange(300))))
    last_step = step
    # rank 11: OOM in forward of step last_step+1 (the long-sequence batch)
    p11 = procs[11]
    tb = [
        "Traceback (most recent call last):",
        "  File \"/workspace/llm/pretrain.py\", line 388, in <module>",
        "    main()",
        "  File \"/workspace/llm/pretrain.py\", line 352, in main",
        "    loss = train_step(model, batch, scaler)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"/workspace/llm/pretrain.py\", line 171, in train_step",
        "    logits = model(batch[\"input_ids\"], attention_mask=batch[\"attention_mask\"])",
        "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/nn/modules/module.py\", line 1553, in _wrapped_call_impl" % SITE,
        "    return self._call_impl(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/nn/modules/module.py\", line 1562, in _call_impl" % SITE,
        "    return forward_call(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"/workspace/llm/model.py\", line 244, in forward",
        "    logits = self.lm_head(h).float()",
        "             ^^^^^^^^^^^^^^^^^^^^^^^",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 3 has a total capacity of "
        "79.11 GiB of which 1.12 GiB is free. Including non-PyTorch memory, this process has 77.98 GiB memory in use. "
        "Of the allocated memory 74.20 GiB is allocated by PyTorch, and 2.31 GiB is reserved by PyTorch but "
        "unallocated. If reserved but unallocated memory is large try setting "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
        "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
    ]
    log.add(t_oom, 11, "o", p11.hook(tb))
    tw = t_oom + S(milliseconds=377)
    log.add(tw, 11, "o", destroy_warning(p11, tw, 1168))
    t_exit11 = tw + S(seconds=1, milliseconds=604)
    log.add(t_exit11, -1, "srun", "srun: error: gpu-b08: task 11: Exited with exit code 1")
    # the other 15: allreduce of step last_step+1 enqueued ~12:03:01.6, timed out 600 s later
    seq = 91217
    last_abort = t_exit11
    for p in procs:
        if p.rank == 11:
            continue
        t_enq = t_oom + S(milliseconds=300 + rng.randrange(500))
        ran = 600000 + 30 + rng.randrange(80)
        tw = t_enq + S(milliseconds=ran + rng.randrange(8))
        for (tb_, lines) in watchdog_teardown(p, tw, rng, style="2.4", seq=seq, op="ALLREDUCE",
                                              nin=26214400, nout=26214400, timeout_ms=600000, ran_ms=ran,
                                              enq=seq + 1, done=seq - 1, dump=False,
                                              lines_no=(607, 1664, 0, 0, 0, 621, 627, 1515)):
            log.add(tb_, p.rank, "o", lines)
            last_abort = max(last_abort, tb_)
    tfin = last_abort + S(seconds=2, milliseconds=311)
    log.add(tfin, -1, "srun", "srun: error: gpu-b07: tasks 0-7: Aborted")
    log.add(tfin + S(milliseconds=2), -1, "srun", "srun: error: gpu-b08: tasks 8-10,12-15: Aborted")
    # combined file: labelled task output interleaved with unlabelled srun messages
    width = len(str(W - 1))
    out = ["Job 90211 started on gpu-b[07-08] at Tue Jun 18 11:20:05 CEST 2024",
           "srun --label --ntasks=16 --ntasks-per-node=8 --gpus-per-task=1 python -u pretrain.py --cfg llama7b.yaml"]
    for (tt, _, rank, stream, lines) in log.merged():
        if rank < 0:
            out.extend(lines)
        else:
            out.extend("%*d: %s" % (width, rank, l) for l in lines)
    write(os.path.join(ROOT, name, "slurm-90211.out"), out, tfin + S(milliseconds=2))
    write_truth(name, "failure", "11", "11", "cuda-oom")


# --------------------------------------------------------------------------
# 4. silent-rank-hang: rank0.log .. rank7.log (srun --output=rank%t.log)
# --------------------------------------------------------------------------

def gen_silent_rank_hang():
    name = "silent-rank-hang"
    rng = random.Random(4004)
    W = 8
    host = "node-c12"
    log = Log()
    procs = [Proc(r, r, host, 91872 + 11 * r + rng.randrange(3), rng, W) for r in range(W)]
    t0 = D(2024, 3, 2, 9, 58, 4, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(700))
        log.add(t, p.rank, "o", dslog(t, "INFO", "train.py:31:main", "rank %d/%d local_rank %d host %s"
                                      % (p.rank, W, p.lr, host)))
        t += S(milliseconds=900 + rng.randrange(200))
        log.add(t, p.rank, "o", dslog(t, "INFO", "comm.py:652:init_distributed",
                                      "cdb=None" if p.rank else "Initializing TorchBackend in DeepSpeed with backend nccl"))
        t += S(seconds=2, milliseconds=rng.randrange(400))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=[host] * W,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRank",
                             channels=8, iface="bond0", ip="172.16.3.12", driver=12040)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=1, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "o", dslog(t, "INFO", "train.py:52:main", "dataset: /nfs/shared/datasets/c4-en/train "
                                      "(NFS), num_workers=6, prefetch_factor=2"))
        t += S(seconds=1)
        log.add(t, p.rank, "o", dslog(t, "INFO", "train.py:60:main", "resumed from /nfs/shared/ckpt/run17/global_step6000"))
    t = D(2024, 3, 2, 10, 0, 1, 220000)
    step = 6000
    t_stop = D(2024, 3, 2, 10, 15, 0, 0)
    loss = 2.63
    last = {}
    while True:
        nt = t + S(milliseconds=3580 + rng.randrange(60))
        step += 1
        loss += rng.uniform(-0.009, 0.0082)
        for p in procs:
            tt = nt + S(milliseconds=rng.randrange(25))
            if p.rank == 3 and tt >= t_stop:
                continue
            log.add(tt, p.rank, "o", dslog(tt, "INFO", "train.py:77:train_step",
                                           "step=%d loss=%.4f lr=%.2e tokens/s=%d" % (
                                               step, loss + rng.uniform(-.05, .05), 2.41e-4, 51000 + rng.randrange(600))))
            last[p.rank] = (step, tt)
        t = nt
        if nt >= t_stop:
            break
    # others: allreduce seq 8121 enqueued in the backward of their last step, never completes
    seq = 8121
    t_enq = t + S(milliseconds=1700)
    for p in procs:
        if p.rank == 3:
            continue
        ran = 1800000 + 50 + rng.randrange(60)
        tw = t_enq + S(milliseconds=ran + rng.randrange(6))
        for (tb, lines) in watchdog_teardown(p, tw, rng, style="2.6", seq=seq, op="ALLREDUCE",
                                             nin=52428800, nout=52428800, timeout_ms=1800000, ran_ms=ran,
                                             enq=seq, done=seq - 1,
                                             lines_no=(632, 2168, 2421, 1706, 1440, 665, 671, 1908)):
            log.add(tb, p.rank, "o", lines)
    for p in procs:
        bl = log.for_rank(p.rank)
        write(os.path.join(ROOT, name, "rank%d.log" % p.rank), blocks_to_lines(bl), last_time(bl))
    write_truth(name, "hang", "none", "3", "nccl-watchdog-timeout")


# --------------------------------------------------------------------------
# 5. ddp-bucket-slow: torchrun --tee 3 console, 4 ranks, healthy but slow
# --------------------------------------------------------------------------

def gen_ddp_bucket_slow():
    name = "ddp-bucket-slow"
    rng = random.Random(5005)
    W = 4
    host = "ws-gpu04"
    log = Log()
    agent_pid = 140237
    procs = [Proc(r, r, host, 140301 + 2 * r, rng, W) for r in range(W)]
    t0 = D(2024, 12, 3, 9, 0, 1, 512000)
    agent = omp_warning(t0, agent_pid, 793)
    log.add(t0, -1, "agent", agent)
    loc = "train_ddp.py"
    nparams = 4868
    total_bytes = 1416806400
    # bucket sizes: first bucket capped at 1 MiB, the rest at 25 MiB (sizes are sums of small tensors)
    sizes = []
    remaining = total_bytes
    brng = random.Random(55)
    cap = 1048576
    while remaining > 0:
        sz = min(remaining, cap + brng.randrange(0, 600) * 256)
        sizes.append(sz)
        remaining -= sz
        cap = 26214400
    ints = [("broadcast_buffers", 1), ("bucket_cap_bytes", 26214400), ("find_unused_parameters", 0),
            ("gradient_as_bucket_view", 0), ("has_sync_bn", 0), ("is_multi_device_module", 0), ("iteration", 0),
            ("num_parameter_tensors", nparams), ("output_device", None), ("rank", None),
            ("total_parameter_size_bytes", total_bytes), ("world_size", W)]
    strs = [("backend_name", "nccl"), ("bucket_sizes", ", ".join(str(s) for s in sizes)),
            ("cuda_visible_devices", "N/A"), ("device_ids", None), ("dtypes", "float"),
            ("master_addr", "127.0.0.1"), ("master_port", "29500"), ("module_name", "AdapterTransformer"),
            ("nccl_async_error_handling", "N/A"), ("nccl_blocking_wait", "N/A"), ("nccl_debug", "WARN"),
            ("nccl_ib_timeout", "N/A"), ("nccl_nthreads", "N/A"), ("nccl_socket_ifname", "N/A"),
            ("torch_distributed_debug", "DETAIL")]
    steps = 1000
    fwd, bwd, comm, ovl = 312.4, 561.9, 983.7, 96.2
    t_train = D(2024, 12, 3, 9, 0, 31, 0)
    for p in procs:
        t = t0 + S(seconds=4, milliseconds=rng.randrange(600))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":48", "rank %d/%d local_rank %d device cuda:%d"
                                        % (p.rank, W, p.lr, p.lr)))
        t += S(milliseconds=2)
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":50", "TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO"
                                        " NCCL_DEBUG=WARN"))
        t += S(seconds=1, milliseconds=rng.randrange(200))
        log.add(t, p.rank, "err", p.c10(t, "I", "ProcessGroupNCCL.cpp:913",
                                        "[PG ID 0 PG GUID 0(default_pg) Rank %d] ProcessGroupNCCL initialization options: "
                                        "size: %d, global rank: %d, TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0, "
                                        "SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0" % (p.rank, W, p.rank)))
        t += S(seconds=3, milliseconds=rng.randrange(500))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":77", "model AdapterTransformer: 354.2M params in %d tensors "
                                        "(96 blocks x 48 adapters)" % nparams))
        t += S(seconds=2, milliseconds=rng.randrange(300))
        if p.rank == 0:
            log.add(t, p.rank, "out", "NCCL version 2.21.5+cuda12.4")
        t += S(seconds=4, milliseconds=rng.randrange(300))
        body = []
        for k, v in ints:
            if v is None:
                v = p.lr if k == "output_device" else p.rank
            body.append("%s: %d" % (k, v))
        for k, v in strs:
            if v is None:
                v = str(p.lr)
            body.append("%s: %s" % (k, v))
        log.add(t, p.rank, "err", [p.c10(t, "I", "logger.cpp:289", "[Rank %d]: DDP Initialized with: " % p.rank)]
                + body + [""])
    # training
    t = t_train
    recorded = 0
    avg = [0, 0, 0, 0]
    for it in range(1, steps + 1):
        t = t + S(milliseconds=1450 + rng.uniform(-15, 15))
        # reducer runtime stats: iterations 1..10 and every 100 (sample rate 100); logged with DETAIL
        if it <= 10 or it % 100 == 0:
            recorded += 1
            cur = [fwd + rng.uniform(-6, 6), bwd + rng.uniform(-8, 8), comm + rng.uniform(-20, 20), ovl + rng.uniform(-4, 4)]
            if it == 1:
                cur = [fwd * 3.1, bwd * 1.4, comm * 1.2, ovl]
            avg = [int((c * 1e6 + a * (recorded - 1)) / recorded) for c, a in zip(cur, avg)]
            for p in procs:
                tt = t - S(milliseconds=1380 - rng.randrange(20))
                pa = [int(a * (1 + rng.uniform(-0.004, 0.004))) for a in avg]
                txt = ("[Rank %d / %d] [before iteration %d] Training AdapterTransformer unused_parameter_size=0 \n "
                       "Avg forward compute time: %d \n Avg backward compute time: %d \n"
                       "Avg backward comm. time: %d \n Avg backward comm/comp overlap time: %d"
                       % (p.rank, W, it, pa[0], pa[1], pa[2], pa[3]))
                lines = txt.split("\n")
                log.add(tt, p.rank, "err", [p.c10(tt, "I", "logger.cpp:412", lines[0])] + lines[1:])
        if it % 10 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(20))
                log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":133", "step %d/%d | loss %.4f | %.1f ms/step | "
                                                 "%.1f samples/s" % (it, steps, 3.9 * (0.9985 ** it) + 1.2 + rng.uniform(-.02, .02),
                                                                     1450 + rng.uniform(-10, 10), 32 / 1.45)))
    for p in procs:
        tt = t + S(milliseconds=400 + rng.randrange(100))
        log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":151", "training complete: %d steps in %.1f s "
                                         "(%.1f ms/step avg)" % (steps, (t - t_train).total_seconds(),
                                                                 (t - t_train).total_seconds() * 1000 / steps)))
    # tee'd console: each rank's stream is tailed separately (0.1 s polling), so the console shows chunks of
    # one rank at a time and lines of different ranks are not in time order
    out = list(agent)
    per_rank = {p.rank: [(b[0], ln) for b in log.for_rank(p.rank) for ln in b[4]] for p in procs}
    idx = {r: 0 for r in per_rank}
    window = t0
    end = max(v[-1][0] for v in per_rank.values())
    while window <= end + S(seconds=20):
        window += S(seconds=15)
        order = list(per_rank)
        rng.shuffle(order)
        for r in order:
            lst = per_rank[r]
            while idx[r] < len(lst) and lst[idx[r]][0] < window:
                out.append("[default%d]:%s" % (r, lst[idx[r]][1]))
                idx[r] += 1
    assert all(idx[r] == len(per_rank[r]) for r in per_rank)
    write(os.path.join(ROOT, name, "console.log"), out, end)
    write_truth(name, "healthy", "none", "none", "ddp-bucket-size")


# ==========================================================================
# Ten more incidents (one per encyclopedia entry); helpers first
# ==========================================================================

NEW_SAMPLES = ["cuda-ima-watchdog", "host-oom-2node", "segfault-tee", "ib-link-down",
               "rdzv-dns-node", "shm-small-container", "ckpt-disk-full", "xid79-fell-off-bus",
               "skip-allreduce-desync", "thermal-straggler"]


def c10_old(p, sev, src, msg):
    """c10 header of torch 2.2/2.3 wheels: '[rankN]:' prefix, no timestamp."""
    return "[rank%d]:[%s %s] %s" % (p.rank, sev, src, msg)


def pg25(rank):
    """ProcessGroupNCCL logPrefix() of torch 2.5+."""
    return "[PG ID 0 PG GUID 0(default_pg) Rank %d] " % rank


CUDA_HINTS = ["CUDA kernel errors might be asynchronously reported at some other API call, so the "
              "stacktrace below might be incorrect.",
              "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
              "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."]


def frames_cuda_check(p, lib, c10src):
    """C++ frames of a CUDA error thrown from the watchdog's event query."""
    L = ["Exception raised from c10_cuda_check_implementation at %s/c10/cuda/CUDAException.cpp:43 "
         "(most recent call first):" % c10src]
    fr = [("c10::Error::Error(c10::SourceLocation, std::string) + 0x57", p.base_c10 + 0x96f57, "libc10.so"),
          ("c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) + 0x64",
           p.base_c10 + 0x4d514, "libc10.so"),
          ("c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118",
           p.base_c10 + 0x127448, "libc10_cuda.so"),
          ("c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56",
           p.base_tc + 0x10ea56, "libtorch_cuda.so"),
          ("c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0xa0", p.base_tc + 0x10f2e0, "libtorch_cuda.so"),
          ("c10d::ProcessGroupNCCL::watchdogHandler() + 0x1f8", p.base_tc + 0x1162d8, "libtorch_cuda.so"),
          ("c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c", p.base_tc + 0x11771c, "libtorch_cuda.so")]
    return L + frame_lines(fr + THREAD_FRAMES, lib)


def torchrun_traceback(site, line_run=919):
    return [
        "Traceback (most recent call last):",
        "  File \"/usr/local/bin/torchrun\", line 8, in <module>",
        "    sys.exit(main())",
        "             ^^^^^^",
        "  File \"%s/torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 355, in wrapper" % site,
        "    return f(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/distributed/run.py\", line %d, in main" % (site, line_run),
        "    run(args)",
        "  File \"%s/torch/distributed/run.py\", line %d, in run" % (site, line_run - 9),
        "    elastic_launch(",
        "  File \"%s/torch/distributed/launcher/api.py\", line 138, in __call__" % site,
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/distributed/launcher/api.py\", line 269, in launch_agent" % site,
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    ]


def failure_block(title, failures):
    """torchrun ChildFailedError summary; failures[0] is the root cause.
    Each failure: (time, host, rank, local_rank, exitcode, pid, traceback)."""
    def one(idx, f):
        t, host, rank, lr, code, pid, tb = f
        return ["[%d]:" % idx,
                "  time      : %s" % t.strftime("%Y-%m-%d_%H:%M:%S"),
                "  host      : %s" % host,
                "  rank      : %d (local_rank: %d)" % (rank, lr),
                "  exitcode  : %d (pid: %d)" % (code, pid),
                "  error_file: <N/A>",
                "  traceback : %s" % tb]
    body = []
    if len(failures) > 1:
        for i, f in enumerate(failures[1:], 1):
            body += one(i, f)
    else:
        body = ["  <NO_OTHER_FAILURES>"]
    root = one(0, failures[0])
    lines = [title + " FAILED", "Failures:"] + body + ["Root Cause (first observed failure):"] + root
    w = min(60, max(len(l) for l in lines))
    return (["=" * w, title + " FAILED", "-" * w, "Failures:"] + body +
            ["-" * w, "Root Cause (first observed failure):"] + root + ["=" * w])


def sig_tb(sig, pid):
    return "Signal %d (%s) received by PID %d" % (sig, {6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV",
                                                       15: "SIGTERM"}[sig], pid)


def write_blocks_per_rank(log, procs, pathfn, streams=None):
    for p in procs:
        bl = log.for_rank(p.rank, streams)
        if bl:
            write(pathfn(p), blocks_to_lines(bl), last_time(bl))


def tee_console(out, per_rank, t0, end, rng, prefix="default", agent=None):
    """torchrun --tee: tail threads poll each rank's files, so the console shows
    chunks of one rank at a time; agent lines (unprefixed) are written at once."""
    agent = sorted(agent or [], key=lambda a: a[0])
    idx = {r: 0 for r in per_rank}
    ai = 0
    window = t0
    while window <= end + S(seconds=20):
        window += S(seconds=15)
        order = list(per_rank)
        rng.shuffle(order)
        while ai < len(agent) and agent[ai][0] < window - S(seconds=7):
            out.extend(agent[ai][1])
            ai += 1
        for r in order:
            lst = per_rank[r]
            while idx[r] < len(lst) and lst[idx[r]][0] < window:
                out.append("[%s%d]:%s" % (prefix, r, lst[idx[r]][1]))
                idx[r] += 1
    while ai < len(agent):
        out.extend(agent[ai][1])
        ai += 1
    assert all(idx[r] == len(per_rank[r]) for r in per_rank)
    return out


def timeout_23(p, t, rng, *, seq, op, nin, timeout_ms, ran_ms, enq, done):
    """Watchdog timeout and abort as printed by torch 2.3 (no timestamps, '[PG 0 Rank N]')."""
    caught = ("[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=%s, "
              "NumelIn=%d, NumelOut=%d, Timeout(ms)=%d) ran for %d milliseconds before timing out."
              % (p.rank, seq, op, nin, nin, timeout_ms, ran_ms))
    L = [c10_old(p, "E", "ProcessGroupNCCL.cpp:563", caught),
         c10_old(p, "E", "ProcessGroupNCCL.cpp:1537", "[PG 0 Rank %d] Timeout at NCCL work: %d, last enqueued NCCL "
                 "work: %d, last completed NCCL work: %d." % (p.rank, seq, enq, done)),
         c10_old(p, "E", "ProcessGroupNCCL.cpp:577", "[Rank %d] Some NCCL operations have failed or timed out. Due to "
                 "the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
                 "corrupted/incomplete data." % p.rank),
         c10_old(p, "E", "ProcessGroupNCCL.cpp:583", "[Rank %d] To avoid data inconsistency, we are taking the "
                 "entire process down." % p.rank)]
    term = "[PG 0 Rank %d] Process group watchdog thread terminated with exception: %s" % (p.rank, caught)
    fr = frames_watchdog(p, SITE, "..", "checkTimeout", 565)
    L += [c10_old(p, "E", "ProcessGroupNCCL.cpp:1414", term)] + fr
    L += ["terminate called after throwing an instance of 'c10::DistBackendError'", "  what():  " + term] + fr[:-1]
    L += frames_watchdog(p, SITE, "..", "ncclCommWatchdog", 1418)
    return L


def dmesg_t(t):
    """dmesg -T prefix: ctime() of the line, day space-padded."""
    return "[%s %s %2d %s %d]" % (t.strftime("%a"), t.strftime("%b"), t.day, t.strftime("%H:%M:%S"), t.year)


# --------------------------------------------------------------------------
# 6. cuda-ima-watchdog: flat log_rank_N.txt, 1 node x 8, torch 2.3.1 (no c10 times)
# --------------------------------------------------------------------------

def gen_cuda_ima_watchdog():
    name = "cuda-ima-watchdog"
    rng = random.Random(6006)
    W = 8
    host = "h100-node03"
    log = Log()
    procs = [Proc(r, r, host, 70411 + 9 * r + rng.randrange(4), rng, W) for r in range(W)]
    loc = "train_moe.py"
    t0 = D(2024, 8, 21, 7, 40, 2, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(600))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":58", "rank %d/%d local_rank %d host %s | torch 2.3.1+cu121 "
                                      "| nccl (2, 20, 5)" % (p.rank, W, p.lr, host)))
        t += S(seconds=2, milliseconds=rng.randrange(400))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":74", "building MoE-1.8B: 16 experts top-2, fused expert "
                                      "kernels from moe_kernels 0.4.2 (built for sm_90)"))
        t += S(seconds=1, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "o", [
            "%s/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and "
            "UntypedStorage will be the only storage class. This should only matter to you if you are using storages "
            "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()" % SITE,
            "  return self.fget.__get__(instance, owner)()"])
        t += S(seconds=2, milliseconds=rng.randrange(300))
        lines, _ = nccl_init(p, t, rng, ver="2.20.5+cuda12.4", nranks=W, comm_rank=p.rank,
                             hosts_of_rank=[host] * W, first_in_proc=True, print_version=(p.rank == 0),
                             fn="ncclCommInitRank", channels=8, iface="eth0", ip="10.52.3.13", driver=12040)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=1, milliseconds=rng.randrange(200))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":121", "resumed from /ckpt/moe-1.8b/step_7000, "
                                      "expert-parallel 8, data-parallel 8"))
    t = D(2024, 8, 21, 7, 40, 31, 0)
    step = 7000
    t_fault = D(2024, 8, 21, 8, 31, 47, 412000)
    loss = 2.402
    while True:
        nt = t + S(milliseconds=904 + rng.randrange(25))
        if nt >= t_fault - S(milliseconds=300):
            break
        t = nt
        step += 1
        loss += rng.uniform(-0.01, 0.0095)
        if step % 20 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(20))
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":188", "step %d | loss %.4f | aux_loss %.4f | "
                                               "tokens/s %d" % (step, loss + rng.uniform(-.03, .03),
                                                                0.011 + rng.random() * 0.002, 118000 + rng.randrange(900))))
    p5 = procs[5]
    # rank 5: the fused expert kernel writes past its buffer; noticed at loss.item()
    tb = [
        "Traceback (most recent call last):",
        "  File \"/workspace/moe/train_moe.py\", line 311, in <module>",
        "    main()",
        "  File \"/workspace/moe/train_moe.py\", line 276, in main",
        "    running_loss += loss.item()",
        "                    ^^^^^^^^^^^",
        "RuntimeError: CUDA error: an illegal memory access was encountered"] + CUDA_HINTS + [""]
    log.add(t_fault, 5, "o", p5.hook(tb))
    tw = t_fault + S(milliseconds=61)
    term = "[PG 0 Rank 5] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered"
    fr = frames_cuda_check(p5, SITE, "..")
    blk = [c10_old(p5, "E", "ProcessGroupNCCL.cpp:1414", term)] + CUDA_HINTS + [""] + fr
    blk += ["terminate called after throwing an instance of 'c10::DistBackendError'",
            "  what():  " + term] + CUDA_HINTS + [""] + fr[:-1]
    blk += frames_watchdog(p5, SITE, "..", "ncclCommWatchdog", 1418)
    log.add(tw, 5, "o", blk)
    # peers: the proxy service threads of the NVLink neighbours notice the exit
    for r in (4, 6):
        p = procs[r]
        tt = tw + S(milliseconds=240 + rng.randrange(40))
        log.add(tt, r, "o", p.ni("[Service thread] Connection closed by localRank 5", p.proxy_tid))
    # others: the all-to-all of step+1 never completes; 10 min later the watchdogs fire (2.3: no c10 times)
    seq = 301877
    for p in procs:
        if p.rank == 5:
            continue
        ran = 600000 + 20 + rng.randrange(90)
        tt = t_fault + S(milliseconds=ran + 180 + rng.randrange(40))
        log.add(tt, p.rank, "o", timeout_23(p, tt, rng, seq=seq, op="ALLTOALL_BASE", nin=14680064,
                                             timeout_ms=600000, ran_ms=ran, enq=seq, done=seq - 1))
    write_blocks_per_rank(log, procs, lambda p: os.path.join(ROOT, name, "log_rank_%d.txt" % p.rank))
    write_truth(name, "failure", "5", "5", "cuda-illegal-memory-access")


# --------------------------------------------------------------------------
# 7. host-oom-2node: torchrun --log-dir per node (node0/, node1/), 2 x 4,
#    agents' output in slurm-77812.out, dmesg -T of the OOM node
# --------------------------------------------------------------------------

def gen_host_oom_2node():
    name = "host-oom-2node"
    rng = random.Random(7007)
    W = 8
    hosts = ["gpu-h11"] * 4 + ["gpu-h12"] * 4
    log = Log()
    procs = []
    for r in range(W):
        procs.append(Proc(r, r % 4, hosts[r], (51207 if r < 4 else 48190) + 4 * (r % 4) + rng.randrange(2), rng, W))
    agent_pid = {"gpu-h11": 51120, "gpu-h12": 48103}
    loc = "pretrain.py"
    t0 = D(2024, 7, 9, 13, 10, 4, 0)
    agent = []
    for h in ("gpu-h11", "gpu-h12"):
        ta = t0 + S(milliseconds=rng.randrange(300))
        agent.append((ta, omp_warning(ta, agent_pid[h], 779)))
    for p in procs:
        t = t0 + S(seconds=3, milliseconds=rng.randrange(700))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":44", "rank %d/%d local_rank %d on %s | torch 2.4.1+cu124"
                                        % (p.rank, W, p.lr, p.host)))
        t += S(seconds=1, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "out", pylog(t, "INFO", "data.py:97", "opening packed dataset /lustre/tok/webmix-v3 with 8 "
                                        "workers, shuffle buffer 200000 samples (host RAM)"))
        t += S(seconds=2, milliseconds=rng.randrange(400))
        lines, _ = nccl_init(p, t, rng, ver="2.20.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=4, iface="ib0", ip="10.60.2.%d" % (11 if p.rank < 4 else 12), driver=12040)
        log.add(t, p.rank, "out", lines)
        t += S(seconds=1)
        log.add(t, p.rank, "err", [
            "%s/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader will create 8 worker processes in "
            "total. Our suggested max number of worker in current system is 6, which is smaller than what this "
            "DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running "
            "slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary." % SITE,
            "  warnings.warn("])
    t = D(2024, 7, 9, 13, 10, 30, 0)
    step = 0
    t_kill = D(2024, 7, 9, 14, 22, 7, 341000)
    rss = {p.rank: 38.0 + rng.uniform(-0.5, 0.5) for p in procs}
    loss = 9.1
    while True:
        nt = t + S(milliseconds=1210 + rng.randrange(30))
        if nt >= t_kill - S(milliseconds=500):
            break
        t = nt
        step += 1
        loss = loss * 0.9993 + 0.0016
        for p in procs:
            rss[p.rank] += 0.0006 + (0.0112 if p.rank == 6 else 0.0)
        if step % 25 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(25))
                log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":203", "step %d | loss %.4f | host rss %.1f GiB | "
                                                 "%.1f ms/step" % (step, loss + rng.uniform(-.02, .02), rss[p.rank],
                                                                   1225 + rng.uniform(-9, 9))))
    # kernel OOM killer on gpu-h12 kills rank 6 (its shuffle buffer grew)
    p6 = procs[6]
    kern = []
    tk = D(2024, 7, 9, 9, 2, 11)
    kern += ["%s nvidia-nvlink: Nvlink Core is being initialized, major device number 511" % dmesg_t(tk),
             "%s NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024" % dmesg_t(tk),
             "%s nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.90.07  Fri May 31 09:30:47 UTC 2024" % dmesg_t(tk + S(seconds=1)),
             "%s mlx5_core 0000:c1:00.0 ib0: Link up" % dmesg_t(tk + S(seconds=9)),
             "%s IPv6: ADDRCONF(NETDEV_CHANGE): ib0: link becomes ready" % dmesg_t(tk + S(seconds=9))]
    tko = t_kill - S(milliseconds=180)
    dpid = p6.pid + 511
    kern += ["%s pt_data_worker invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, "
             "oom_score_adj=0" % dmesg_t(tko),
             "%s CPU: 77 PID: %d Comm: pt_data_worker Tainted: P           OE      5.15.0-113-generic #123-Ubuntu" % (dmesg_t(tko), dpid),
             "%s Hardware name: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 03/22/2024" % dmesg_t(tko),
             "%s Mem-Info:" % dmesg_t(tko),
             "%s active_anon:127893312 inactive_anon:3120044 isolated_anon:0" % dmesg_t(tko),
             "%s Tasks state (memory values in pages):" % dmesg_t(tko)]
    for q in procs[4:]:
        kern.append("%s [%7d]  1000 %7d 52836412 %8d 74317824        0             0 python" % (
            dmesg_t(tko), q.pid, q.pid, int(rss[q.rank] * 262144)))
    kern += ["%s oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,global_oom,"
             "task_memcg=/user.slice/user-1000.slice/session-4.scope,task=python,pid=%d,uid=1000" % (dmesg_t(t_kill), p6.pid),
             "%s Out of memory: Killed process %d (python) total-vm:211345648kB, anon-rss:%dkB, file-rss:1183220kB, "
             "shmem-rss:30948kB, UID:1000 pgtables:412880kB oom_score_adj:0" % (dmesg_t(t_kill), p6.pid, int(rss[6] * 1048576)),
             "%s oom_reaper: reaped process %d (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:30948kB" % (
                 dmesg_t(t_kill + S(seconds=1)), p6.pid)]
    write(os.path.join(ROOT, name, "kern-gpu-h12.log"), kern, t_kill + S(seconds=1))
    # agent on gpu-h12: SIGTERM to its other workers, then the failure and the summary
    ta = t_kill + S(milliseconds=95)
    al = []
    for q in procs[4:]:
        if q.rank != 6:
            al += agentlog(ta, "W", agent_pid["gpu-h12"], "torch/distributed/elastic/multiprocessing/api.py:858",
                           "Sending process %d closing signal SIGTERM" % q.pid)
            ta += S(microseconds=300)
    ta2 = ta + S(seconds=2, milliseconds=410)
    al += agentlog(ta2, "E", agent_pid["gpu-h12"], "torch/distributed/elastic/multiprocessing/api.py:833",
                   "failed (exitcode: -9) local_rank: 2 (pid: %d) of binary: /usr/bin/python3" % p6.pid)
    al += torchrun_traceback("/usr/local/lib/python3.10/dist-packages", 919)
    al += failure_block("pretrain.py", [(t_kill, "gpu-h12", 6, 2, -9, p6.pid, sig_tb(9, p6.pid))])
    agent.append((ta, al))
    # gpu-h11: ranks 0-3 wait in the all-reduce of the next step; 10 min later they abort
    seq = 2 * step + 41
    last = ta2
    fails = []
    for p in procs[:4]:
        ran = 600000 + 40 + rng.randrange(60)
        tw = t_kill + S(milliseconds=ran + 300 + rng.randrange(20))
        for (tb_, lines) in watchdog_teardown(p, tw, rng, style="2.4", seq=seq, op="ALLREDUCE",
                                              nin=67108864, nout=67108864, timeout_ms=600000, ran_ms=ran,
                                              enq=seq, done=seq - 1, dump=False,
                                              lines_no=(609, 1664, 0, 0, 0, 623, 629, 1517)):
            log.add(tb_, p.rank, "err", lines)
            last = max(last, tb_)
        fails.append(p)
    tf = last + S(seconds=1, milliseconds=30)
    al = agentlog(tf, "E", agent_pid["gpu-h11"], "torch/distributed/elastic/multiprocessing/api.py:833",
                  "failed (exitcode: -6) local_rank: 0 (pid: %d) of binary: /usr/bin/python3" % procs[0].pid)
    al += torchrun_traceback("/usr/local/lib/python3.10/dist-packages", 919)
    al += failure_block("pretrain.py", [(tf, "gpu-h11", q.rank, q.lr, -6, q.pid, sig_tb(6, q.pid)) for q in fails])
    agent.append((tf, al))
    agent.append((tf + S(seconds=1), ["srun: error: gpu-h12: task 1: Exited with exit code 1",
                                       "srun: error: gpu-h11: task 0: Exited with exit code 1"]))
    slurm = ["+ srun --ntasks-per-node=1 torchrun --nnodes 2 --nproc-per-node 4 --rdzv-backend c10d "
             "--rdzv-endpoint gpu-h11:29400 --redirects 3 --log-dir /shared/logs/77812/node${SLURM_NODEID} pretrain.py"]
    for (_, lines) in sorted(agent, key=lambda a: a[0]):
        slurm.extend(lines)
    write(os.path.join(ROOT, name, "slurm-77812.out"), slurm, tf + S(seconds=1))
    run_ids = {"gpu-h11": "none_4ud8_k2x", "gpu-h12": "none_q9vz0m3e"}
    for p in procs:
        d = os.path.join(ROOT, name, "node%d" % (p.rank // 4), run_ids[p.host], "attempt_0", str(p.lr))
        for s, fn in (("out", "stdout.log"), ("err", "stderr.log")):
            bl = log.for_rank(p.rank, (s,))
            if bl:
                write(os.path.join(d, fn), blocks_to_lines(bl), last_time(bl))
            else:
                write(os.path.join(d, fn), [], t0)
    write_truth(name, "failure", "6", "6", "host-oom-kill")


# --------------------------------------------------------------------------
# 8. segfault-tee: torchrun --tee 3 console, 1 node x 8, torch 2.6 (UTC host)
# --------------------------------------------------------------------------

def gen_segfault_tee():
    name = "segfault-tee"
    rng = random.Random(8008)
    W = 8
    host = "dgx-b03"
    site = "/opt/conda/lib/python3.11/site-packages"
    log = Log()
    agent_pid = 402117
    procs = [Proc(r, r, host, 402201 + 3 * r, rng, W) for r in range(W)]
    t0 = D(2025, 2, 18, 9, 2, 40, 118000)
    agent = [(t0, omp_warning(t0, agent_pid, 792))]
    loc = "train_vlm.py"
    for p in procs:
        t = t0 + S(seconds=5, milliseconds=rng.randrange(800))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":66", "rank %d/%d cuda:%d | torch 2.6.0+cu124 | nccl 2.21.5"
                                        % (p.rank, W, p.lr)))
        t += S(seconds=1, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "err", [
            "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
            "I0000 00:00:%d.%06d %7d array_record_reader.cc:41] array_record reader pool: 4 threads" % (
                calendar.timegm(t.timetuple()), t.microsecond + rng.randrange(900), p.pid)])
        t += S(seconds=3, milliseconds=rng.randrange(400))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=[host] * W,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=16, iface="enp90s0np0", ip="172.20.9.3", driver=12040)
        log.add(t, p.rank, "out", lines)
        t += S(seconds=2, milliseconds=rng.randrange(200))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":140", "vision tower frozen, LLM FSDP HYBRID_SHARD, "
                                        "async TP comm hooks on"))
    t = D(2025, 2, 18, 9, 3, 10, 0)
    step = 0
    t_segv = D(2025, 2, 18, 9, 33, 54, 0) + S(milliseconds=221)
    while True:
        nt = t + S(milliseconds=1730 + rng.randrange(40))
        if nt >= t_segv - S(milliseconds=400):
            break
        t = nt
        step += 1
        if step % 10 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(30))
                log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":233", "step %d/20000 | loss %.4f | lr %.2e | "
                                                 "grad_norm %.3f" % (step, 1.9 * (0.9996 ** step) + 0.8 + rng.uniform(-.02, .02),
                                                                     3e-5, 0.6 + rng.random() * 0.3)))
    # rank 6: NCCL proxy thread segfaults; absl's failure signal handler (installed by array_record) prints it
    p6 = procs[6]
    epoch = calendar.timegm(t_segv.timetuple())
    base = 0x7f8e5c200000 + rng.randrange(0xfff) * 0x1000
    seg = ["*** SIGSEGV received at time=%d on cpu 53 ***" % epoch,
           "PC: @     0x%x  (unknown)  ncclLocalOpAppend()" % (base + 0xb9a1e),
           "    @     0x7f8f1a442520  (unknown)  (unknown)",
           "    @     0x%x        160  ncclProxySaveOp()" % (base + 0xc3f5d),
           "    @     0x%x        224  ncclProxyStart()" % (base + 0xc5a12),
           "    @     0x%x        400  hostStreamPlanTask()" % (base + 0x71c40),
           "    @     0x%x  (unknown)  (unknown)" % (base - 0x3a000000 + 0x2a81b),
           "    @ ... and at least 3 more frames"]
    log.add(t_segv, 6, "err", seg)
    # local peers: proxy service threads see rank 6's connection drop
    for q in procs:
        if q.rank == 6:
            continue
        tt = t_segv + S(milliseconds=30 + rng.randrange(50))
        log.add(tt, q.rank, "out", q.ni("[Service thread] Connection closed by localRank 6", q.proxy_tid))
    # agent: SIGTERM to the others, then failure + summary
    ta = t_segv + S(milliseconds=90)
    al = []
    for q in procs:
        if q.rank != 6:
            al += agentlog(ta, "W", agent_pid, "torch/distributed/elastic/multiprocessing/api.py:897",
                           "Sending process %d closing signal SIGTERM" % q.pid)
            ta += S(microseconds=250 + rng.randrange(100))
    tf = ta + S(seconds=1, milliseconds=512)
    al += agentlog(tf, "E", agent_pid, "torch/distributed/elastic/multiprocessing/api.py:869",
                   "failed (exitcode: -11) local_rank: 6 (pid: %d) of binary: /opt/conda/bin/python3.11" % p6.pid)
    al += torchrun_traceback(site, 918)
    al += failure_block("train_vlm.py", [(t_segv, host, 6, 6, -11, p6.pid, sig_tb(11, p6.pid))])
    agent.append((ta, al))
    per_rank = {p.rank: [(b[0], ln) for b in log.for_rank(p.rank) for ln in b[4]] for p in procs}
    out = tee_console([], per_rank, t0, t_segv, rng, agent=agent)
    write(os.path.join(ROOT, name, "console.log"), out, tf)
    write_truth(name, "failure", "6", "6", "segfault")


# --------------------------------------------------------------------------
# 9. ib-link-down: Slurm per-task files %x-%j-%N-%t.out, 2 nodes x 8,
#    torch 2.7 / NCCL 2.26.2 (WARN lines carry timestamps)
# --------------------------------------------------------------------------

def gen_ib_link_down():
    name = "ib-link-down"
    rng = random.Random(9009)
    W = 16
    hosts = ["gpu-d03"] * 8 + ["gpu-d04"] * 8
    ibip = {"gpu-d03": "10.30.1.13", "gpu-d04": "10.30.1.14"}
    log = Log()
    procs = [Proc(r, r % 8, hosts[r], (118211 if r < 8 else 118790) + 5 * (r % 8) + rng.randrange(3), rng, W)
             for r in range(W)]
    loc = "pretrain.py"
    t0 = D(2025, 5, 14, 1, 58, 20, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(1200))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":39", "rank %d/%d on %s local_rank %d | torch 2.7.0+cu126 | "
                                      "nccl 2.26.2" % (p.rank, W, p.host, p.lr)))
        t += S(seconds=4, milliseconds=rng.randrange(600))
        lines, _ = nccl_init(p, t, rng, ver="2.26.2+cuda12.6", nranks=W, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=8, iface="ib0", ip=ibip[p.host], driver=12060)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=2, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":77", "FSDP2 fully_shard llama-13b, 40 layers, bf16 params, "
                                      "fp32 reduce"))
    t = D(2025, 5, 14, 1, 58, 41, 0)
    step = 0
    t_evt = D(2025, 5, 14, 3, 17, 42, 630000)
    while True:
        nt = t + S(milliseconds=2410 + rng.randrange(40))
        if nt >= t_evt - S(milliseconds=800):
            break
        t = nt
        step += 1
        if step % 20 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(40))
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":180", "step %d | loss %.4f | %.1f TFLOP/s/GPU"
                                               % (step, 2.2 * (0.9997 ** step) + 1.1 + rng.uniform(-.02, .02),
                                                  388 + rng.uniform(-5, 5))))
    p9 = procs[9]
    async_tid = p9.pid + 60
    L = p9.nwarn("transport/net_ib.cc:104", "NET/IB : mlx5_1:1 Got async event : port error", tid=async_tid, ts=t_evt)
    log.add(t_evt, 9, "o", L)
    t12 = t_evt + S(seconds=8, milliseconds=120)
    ib = ("NET/IB: Got completion from peer %s<52117> with status=12 opcode=0 len=0 vendor err 129 (Send) "
          "localGid ::ffff:%s remoteGids::ffff:%s hca mlx5_1" % (ibip["gpu-d03"], ibip["gpu-d04"], ibip["gpu-d03"]))
    L = p9.nwarn("transport/net_ib.cc:2449", ib, tid=p9.proxy_tid, ts=t12)
    L += [p9.ni("transport/net.cc:1298 -> 6", p9.proxy_tid), p9.ni("proxy.cc:694 -> 6", p9.proxy_tid),
          p9.ni("proxy.cc:874 -> 6 [Progress Thread]", p9.proxy_tid)]
    log.add(t12, 9, "o", L)
    tw = t12 + S(milliseconds=96)
    seq = 18431
    pre = pg25(9)
    exc = ("NCCL error: remote process exited or there was a network error, NCCL version 2.26.2")
    detail = ["ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
              "Last error:", ib]
    blk = [p9.c10(tw, "E", "ProcessGroupNCCL.cpp:2032", pre + " failure detected by watchdog at work sequence id: %d "
                  "PG status: last enqueued work: %d, last completed work: %d" % (seq, seq + 1, seq - 1)),
           p9.c10(tw, "E", "ProcessGroupNCCL.cpp:684", "[Rank 9] Some NCCL operations have failed or timed out. Due to "
                  "the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
                  "corrupted/incomplete data."),
           p9.c10(tw, "E", "ProcessGroupNCCL.cpp:698", "[Rank 9] To avoid data inconsistency, we are taking the entire "
                  "process down.")]
    fr = frames_watchdog(p9, "/usr/local/lib/python3.12/dist-packages", "/pytorch", "checkForNCCLErrors", 2130)
    term = pre + "Process group watchdog thread terminated with exception: " + exc
    blk += [p9.c10(tw + S(microseconds=900), "E", "ProcessGroupNCCL.cpp:1895", term)] + detail + fr
    blk += ["terminate called after throwing an instance of 'c10::DistBackendError'", "  what():  " + term] + detail + fr[:-1]
    blk += frames_watchdog(p9, "/usr/local/lib/python3.12/dist-packages", "/pytorch", "ncclCommWatchdog", 1901)
    log.add(tw, 9, "o", blk)
    t_exit = tw + S(milliseconds=420)
    # fallout on gpu-d04: the NVLink neighbours' proxies lose rank 9, their watchdogs raise remote errors
    for r in (8, 10):
        p = procs[r]
        tt = t_exit + S(milliseconds=35 + rng.randrange(30))
        peer = "gpu-d04<%d>" % (38100 + 17 * r)
        L = [p.ni("[Service thread] Connection closed by localRank 1", p.proxy_tid)]
        L += p.nwarn("misc/socket.cc:68", "socketProgress: Connection closed by remote peer %s" % peer,
                     tid=p.proxy_tid, ts=tt)
        L += [p.ni("misc/socket.cc:857 -> 6", p.proxy_tid), p.ni("proxy.cc:1489 -> 6", p.proxy_tid)]
        log.add(tt, r, "o", L)
        tw2 = tt + S(milliseconds=70 + rng.randrange(20))
        pre2 = pg25(r)
        det2 = ["ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
                "Last error:", "socketProgress: Connection closed by remote peer %s" % peer]
        term2 = pre2 + "Process group watchdog thread terminated with exception: " + exc
        fr2 = frames_watchdog(p, "/usr/local/lib/python3.12/dist-packages", "/pytorch", "checkForNCCLErrors", 2130)
        b2 = [p.c10(tw2, "E", "ProcessGroupNCCL.cpp:2032", pre2 + " failure detected by watchdog at work sequence id: "
                    "%d PG status: last enqueued work: %d, last completed work: %d" % (seq, seq + 1, seq - 1)),
              p.c10(tw2, "E", "ProcessGroupNCCL.cpp:1895", term2)] + det2 + fr2
        b2 += ["terminate called after throwing an instance of 'c10::DistBackendError'", "  what():  " + term2] + det2
        log.add(tw2, r, "o", b2)
    write_blocks_per_rank(log, procs, lambda p: os.path.join(ROOT, name, "pretrain-4471203-%s-%d.out" % (p.host, p.rank)))
    tend = t_exit + S(seconds=33)
    batch = ["Wed May 14 01:58:14 UTC 2025",
             "nodes: gpu-d[03-04], 16 tasks; srun --kill-on-bad-exit=1 --output=%x-%j-%N-%t.out python -u pretrain.py",
             "srun: error: gpu-d04: task 9: Aborted (core dumped)",
             "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
             "slurmstepd: error: *** STEP 4471203.0 ON gpu-d03 CANCELLED AT %s ***" % (t_exit + S(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S"),
             "slurmstepd: error: *** STEP 4471203.0 ON gpu-d04 CANCELLED AT %s ***" % (t_exit + S(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S"),
             "srun: error: gpu-d04: tasks 8,10: Aborted (core dumped)",
             "srun: error: gpu-d03: tasks 0-7: Terminated",
             "srun: error: gpu-d04: tasks 11-15: Terminated",
             "srun: Force Terminated StepId=4471203.0"]
    write(os.path.join(ROOT, name, "slurm-4471203.out"), batch, tend)
    write_truth(name, "failure", "9", "9", "nccl-network-error")


# --------------------------------------------------------------------------
# 10. rdzv-dns-node: one combined srun --label log, 2 nodes x 4, torch 2.4.0;
#     gpu-e02 cannot resolve MASTER_ADDR
# --------------------------------------------------------------------------

def gen_rdzv_dns_node():
    name = "rdzv-dns-node"
    rng = random.Random(10010)
    W = 8
    hosts = ["gpu-e01"] * 4 + ["gpu-e02"] * 4
    site = "/usr/local/lib/python3.10/dist-packages"
    log = Log()
    procs = [Proc(r, r % 4, hosts[r], (20311 if r < 4 else 19877) + 2 * (r % 4), rng, W) for r in range(W)]
    loc = "train.py"
    t0 = D(2024, 10, 2, 16, 0, 3, 0)
    start = {}
    for p in procs:
        t = t0 + S(milliseconds=500 + rng.randrange(900))
        if p.rank == 6:
            t = t0 + S(milliseconds=240)
        start[p.rank] = t
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":31", "rank %d/%d on %s | MASTER_ADDR=gpu-e01 MASTER_PORT=29500 "
                                      "| torch 2.4.0+cu121" % (p.rank, W, p.host)))
        log.add(t + S(milliseconds=3), p.rank, "o", pylog(t + S(milliseconds=3), "INFO", loc + ":40",
                                                          "init_process_group(backend='nccl', init_method='env://', "
                                                          "timeout=0:10:00)"))
    tb_init = [
        "Traceback (most recent call last):",
        "  File \"/workspace/ft/train.py\", line 412, in <module>",
        "    main()",
        "  File \"/workspace/ft/train.py\", line 41, in main",
        "    dist.init_process_group(backend=\"nccl\", timeout=timedelta(minutes=10))",
        "  File \"%s/torch/distributed/c10d_logger.py\", line 79, in wrapper" % site,
        "    return func(*args, **kwargs)",
        "  File \"%s/torch/distributed/c10d_logger.py\", line 93, in wrapper" % site,
        "    func_return = func(*args, **kwargs)",
        "  File \"%s/torch/distributed/distributed_c10d.py\", line 1361, in init_process_group" % site,
        "    store, rank, world_size = next(rendezvous_iterator)",
        "  File \"%s/torch/distributed/rendezvous.py\", line 258, in _env_rendezvous_handler" % site,
        "    store = _create_c10d_store(master_addr, master_port, rank, world_size, timeout, use_libuv)",
        "  File \"%s/torch/distributed/rendezvous.py\", line 185, in _create_c10d_store" % site,
        "    return TCPStore(",
        "           ^^^^^^^^^"]
    # gpu-e02: getaddrinfo fails on every attempt until the 600 s connect timeout
    for p in procs[4:]:
        t = start[p.rank] + S(milliseconds=1800 + rng.randrange(200))
        tend = t + S(seconds=600)
        delay = 1.0
        while t < tend:
            log.add(t, p.rank, "o", p.c10(t, "W", "socket.cpp:697", "[c10d] The IPv4 network addresses of (gpu-e01, "
                                           "29500) cannot be retrieved (gai error: -2 - Name or service not known).",
                                           rank_prefix=False))
            t += S(seconds=delay, milliseconds=rng.randrange(300))
            delay = min(delay * 2, 30.0)
        t = tend + S(milliseconds=rng.randrange(30))
        log.add(t, p.rank, "o", tb_init + ["torch.distributed.DistNetworkError: The client socket has timed out after "
                                           "600000ms while trying to connect to (gpu-e01, 29500)."])
    # gpu-e01: rank 0 hosts the store; ranks 1-3 join, build the model, then wait for the NCCL id
    for p in procs[1:4]:
        t = start[p.rank] + S(seconds=2, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":47", "process group ready (rank %d)" % p.rank))
        t += S(seconds=6, milliseconds=rng.randrange(500))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":63", "loaded mistral-7b weights, LoRA r=64 on q,k,v,o"))
        t += S(milliseconds=400)
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":71", "wrapping model in DDP"))
    t_srv = start[0] + S(seconds=601, milliseconds=12)
    log.add(t_srv, 0, "o", tb_init + ["torch.distributed.DistStoreError: Timed out after 601 seconds waiting for "
                                      "clients. 4/8 clients joined."])
    ddp_tb = [
        "Traceback (most recent call last):",
        "  File \"/workspace/ft/train.py\", line 412, in <module>",
        "    main()",
        "  File \"/workspace/ft/train.py\", line 72, in main",
        "    model = DDP(model, device_ids=[local_rank])",
        "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/nn/parallel/distributed.py\", line 822, in __init__" % site,
        "    _verify_param_shape_across_processes(self.process_group, parameters)",
        "  File \"%s/torch/distributed/utils.py\", line 286, in _verify_param_shape_across_processes" % site,
        "    return dist._verify_params_across_processes(process_group, tensors, logger)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"]
    for p in procs[1:4]:
        t = t_srv + S(milliseconds=4 + rng.randrange(8))
        err = ("torch.distributed.DistBackendError: [%d] is setting up NCCL communicator and retrieving ncclUniqueId "
               "from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer"
               % p.rank)
        fr = ["Exception raised from recvBytes at ../torch/csrc/distributed/c10d/Utils.hpp:672 (most recent call first):",
              "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x%x in %s/torch/lib/libc10.so)"
              % (p.base_c10 + 0x96f57, site),
              "frame #1: <unknown function> + 0x5a9a5ee (0x%x in %s/torch/lib/libtorch_cpu.so)" % (p.base_tc - 0x9000000, site),
              "frame #2: c10d::TCPStore::doWait(c10::ArrayRef<std::string>, std::chrono::duration<long, std::ratio<1l, "
              "1000l> >) + 0x360 (0x%x in %s/torch/lib/libtorch_cpu.so)" % (p.base_tc - 0x8f00000, site),
              "frame #3: c10d::TCPStore::doGet(std::string const&) + 0x32 (0x%x in %s/torch/lib/libtorch_cpu.so)"
              % (p.base_tc - 0x8e00000, site),
              "frame #4: c10d::TCPStore::get(std::string const&) + 0xa1 (0x%x in %s/torch/lib/libtorch_cpu.so)"
              % (p.base_tc - 0x8d00000, site),
              "frame #5: c10d::ProcessGroupNCCL::broadcastUniqueNCCLID(ncclUniqueId*, bool, std::string const&, int) "
              "+ 0x1f3 (0x%x in %s/torch/lib/libtorch_cuda.so)" % (p.base_tc + 0x10a2f3, site),
              ". This may indicate a possible application crash on rank 0 or a network set up issue."]
        log.add(t, p.rank, "o", p.hook(ddp_tb + [err] + fr))
    tq = t_srv + S(seconds=1, milliseconds=200)
    log.add(tq, -1, "srun", "srun: error: gpu-e01: tasks 0-3: Exited with exit code 1")
    tq2 = max(b[0] for b in log.blocks) + S(seconds=1, milliseconds=100)
    log.add(tq2, -1, "srun", "srun: error: gpu-e02: tasks 4-7: Exited with exit code 1")
    out = ["SLURM_JOB_ID=3310457 nodes gpu-e[01-02] (2 x 4 GPUs)",
           "+ export MASTER_ADDR=gpu-e01 MASTER_PORT=29500",
           "+ srun --label --ntasks-per-node=4 --container-image=nvcr.io/nvidia/pytorch:24.07-py3 python -u train.py"]
    for (tt, _, rank, stream, lines) in log.merged():
        if rank < 0:
            out.extend(lines)
        else:
            out.extend("%d: %s" % (rank, l) for l in lines)
    write(os.path.join(ROOT, name, "slurm-3310457.out"), out, tq2)
    write_truth(name, "failure", "6", "6", "rendezvous-failure")


# --------------------------------------------------------------------------
# 11. shm-small-container: torchrun --log-dir, 1 node x 4 (docker, 64 MB /dev/shm),
#     torch 2.5.1, NCCL 2.21.5, no P2P -> SHM transport
# --------------------------------------------------------------------------

def gen_shm_small_container():
    name = "shm-small-container"
    rng = random.Random(11011)
    W = 4
    host = "4f2c9e1ab7d3"        # docker container hostname
    site = "/usr/local/lib/python3.11/site-packages"
    log = Log()
    agent_pid = 1
    procs = [Proc(r, r, host, 87 + 6 * r, rng, W) for r in range(W)]
    loc = "finetune.py"
    t0 = D(2024, 11, 27, 15, 44, 9, 0)
    agent = omp_warning(t0, agent_pid, 793)
    tinit = {}
    for p in procs:
        t = t0 + S(seconds=3, milliseconds=rng.randrange(500))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":52", "rank %d/%d cuda:%d (NVIDIA RTX 6000 Ada Generation) | "
                                        "torch 2.5.1+cu124" % (p.rank, W, p.lr)))
        t += S(seconds=5, milliseconds=rng.randrange(900))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":80", "loaded Qwen2-1.5B, gradient checkpointing on"))
        t += S(milliseconds=300 + rng.randrange(100))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":95", "wrapping model in DDP"))
        tinit[p.rank] = t + S(milliseconds=20)
    # world communicator init: P2P not available between these GPUs -> SHM transport
    tj = max(tinit.values()) + S(milliseconds=150)
    segs = {}
    for p in procs:
        L = []
        L.append(p.ni("Bootstrap : Using eth0:172.17.0.2<0>"))
        L.append(p.ni("NET/Plugin: No plugin found (libnccl-net.so)"))
        L.append(p.ni("NET/IB : No device found."))
        L.append(p.ni("NET/Socket : Using [0]eth0:172.17.0.2<0>"))
        L.append(p.ni("Using non-device net plugin version 0"))
        L.append(p.ni("Using network Socket"))
        if p.rank == 0:
            L.append("NCCL version 2.21.5+cuda12.4")
        comm = hex12(rng)
        L.append(p.ni("ncclCommInitRank comm %s rank %d nranks 4 cudaDev %d nvmlDev %d busId %s commId %s - Init START"
                      % (comm, p.rank, p.lr, p.lr, ["1000", "25000", "81000", "c1000"][p.lr], hex16(rng)), p.init_tid))
        L.append(p.ni("P2P is disabled between connected GPUs", p.init_tid))
        L.append(p.ni("comm %s rank %d nRanks 4 nNodes 1 localRanks 4 localRank %d MNNVL 0" % (comm, p.rank, p.lr),
                      p.init_tid))
        if p.rank == 0:
            for c in range(2):
                L.append(p.ni("Channel %02d/02 :    0   1   2   3" % c, p.init_tid))
        L.append(p.ni("Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d" % (
            (p.rank + 1) % 4 or -1, p.rank, p.rank - 1 if p.rank else -1,
            (p.rank + 1) % 4 or -1, p.rank, p.rank - 1 if p.rank else -1), p.init_tid))
        L.append(p.ni("P2P Chunksize set to 131072", p.init_tid))
        segs[p.rank] = "/dev/shm/nccl-" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                                                  for _ in range(6))
        log.add(tj + S(milliseconds=5 * p.rank), p.rank, "out", L)
    # ranks 0 and 1 get their segments; rank 2's segment does not fit in the 64 MB /dev/shm
    for p in procs[:2]:
        tt = tj + S(milliseconds=40 + 3 * p.rank)
        log.add(tt, p.rank, "out", [p.ni("Channel %02d : %d[%d] -> %d[%d] via SHM/direct/direct" % (c, p.rank, p.lr,
                                                                                                     p.rank + 1, p.lr + 1),
                                         p.init_tid) for c in range(2)])
    p2 = procs[2]
    t2 = tj + S(milliseconds=61)
    L = p2.nwarn("misc/shmutils.cc:72", "Error: failed to extend %s to 9637892 bytes" % segs[2], tid=p2.init_tid)
    L += p2.nwarn("misc/shmutils.cc:113", "Error while creating shared memory segment %s (size 9637888)" % segs[2],
                  tid=p2.init_tid)
    L += [p2.ni("transport/shm.cc:114 -> 2", p2.init_tid), p2.ni("transport.cc:33 -> 2", p2.init_tid),
          p2.ni("transport.cc:113 -> 2", p2.init_tid), p2.ni("init.cc:1222 -> 2", p2.init_tid),
          p2.ni("init.cc:1501 -> 2", p2.init_tid), p2.ni("group.cc:64 -> 2 [Async thread]", p2.init_tid),
          p2.ni("group.cc:418 -> 2", p2.pid), p2.ni("init.cc:1876 -> 2", p2.pid)]
    log.add(t2, 2, "out", L)
    ddp_tb = [
        "Traceback (most recent call last):",
        "  File \"/app/finetune.py\", line 211, in <module>",
        "    main()",
        "  File \"/app/finetune.py\", line 96, in main",
        "    model = DDP(model, device_ids=[local_rank])",
        "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/nn/parallel/distributed.py\", line 825, in __init__" % site,
        "    _verify_param_shape_across_processes(self.process_group, parameters)",
        "  File \"%s/torch/distributed/utils.py\", line 288, in _verify_param_shape_across_processes" % site,
        "    return dist._verify_params_across_processes(process_group, tensors, logger)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"]
    t2e = t2 + S(milliseconds=6)
    log.add(t2e, 2, "err", p2.hook(ddp_tb + [
        "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
        "2027, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
        "Last error:",
        "Error while creating shared memory segment %s (size 9637888)" % segs[2]]))
    log.add(t2e + S(milliseconds=390), 2, "err", destroy_warning(p2, t2e + S(milliseconds=390), 1250))
    # rank 3 receives from rank 2 over SHM: the segment it must attach to is not there
    p3 = procs[3]
    t3 = t2 + S(milliseconds=12)
    L = p3.nwarn("misc/shmutils.cc:128", "Error while attaching to shared memory segment %s (size 0), error: No such "
                 "file or directory (2)" % segs[2], tid=p3.init_tid)
    L += [p3.ni("transport/shm.cc:156 -> 2", p3.init_tid), p3.ni("transport.cc:54 -> 2", p3.init_tid),
          p3.ni("transport.cc:113 -> 2", p3.init_tid), p3.ni("init.cc:1222 -> 2", p3.init_tid),
          p3.ni("init.cc:1501 -> 2", p3.init_tid), p3.ni("group.cc:64 -> 2 [Async thread]", p3.init_tid),
          p3.ni("group.cc:418 -> 2", p3.pid), p3.ni("init.cc:1876 -> 2", p3.pid)]
    log.add(t3, 3, "out", L)
    log.add(t3 + S(milliseconds=5), 3, "err", p3.hook(ddp_tb + [
        "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
        "2027, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
        "Last error:",
        "Error while attaching to shared memory segment %s (size 0), error: No such file or directory (2)" % segs[2]]))
    # ranks 0, 1: the bootstrap ring loses rank 2
    for p in procs[:2]:
        tt = t2e + S(milliseconds=420 + rng.randrange(40))
        peer = "172.17.0.2<%d>" % (41300 + 11 * p.rank)
        L = p.nwarn("misc/socket.cc:50", "socketProgress: Connection closed by remote peer %s" % peer, tid=p.init_tid)
        L += [p.ni("misc/socket.cc:752 -> 6", p.init_tid), p.ni("bootstrap.cc:92 -> 6", p.init_tid),
              p.ni("transport.cc:117 -> 6", p.init_tid), p.ni("init.cc:1222 -> 6", p.init_tid),
              p.ni("group.cc:64 -> 6 [Async thread]", p.init_tid), p.ni("group.cc:418 -> 6", p.pid),
              p.ni("init.cc:1876 -> 6", p.pid)]
        log.add(tt, p.rank, "out", L)
        log.add(tt + S(milliseconds=6), p.rank, "err", p.hook(ddp_tb + [
            "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "2027, remote process exited or there was a network error, NCCL version 2.21.5",
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            "Last error:",
            "socketProgress: Connection closed by remote peer %s" % peer]))
    ta = t2e + S(milliseconds=560)
    al = []
    for q in (procs[0], procs[1], procs[3]):
        al += agentlog(ta, "W", agent_pid, "torch/distributed/elastic/multiprocessing/api.py:897",
                       "Sending process %d closing signal SIGTERM" % q.pid)
        ta += S(microseconds=310)
    tf = ta + S(milliseconds=640)
    al += agentlog(tf, "E", agent_pid, "torch/distributed/elastic/multiprocessing/api.py:869",
                   "failed (exitcode: 1) local_rank: 2 (pid: %d) of binary: /usr/bin/python" % p2.pid)
    al += torchrun_traceback(site, 919)
    al += failure_block("finetune.py", [(t2e + S(milliseconds=500), host, 2, 2, 1, p2.pid,
                                         "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html")])
    write(os.path.join(ROOT, name, "torchrun.log"), agent + al, tf)
    base = os.path.join(ROOT, name, "logs", "none_x7q1m0rt", "attempt_0")
    for p in procs:
        for s, fn in (("out", "stdout.log"), ("err", "stderr.log")):
            bl = log.for_rank(p.rank, (s,))
            write(os.path.join(base, str(p.lr), fn), blocks_to_lines(bl), last_time(bl))
    write_truth(name, "failure", "2", "2", "nccl-shm-exhausted")


# --------------------------------------------------------------------------
# 12. ckpt-disk-full: one combined srun --label log, 2 nodes x 8, torch 2.6;
#     local rank 0 of each node saves a node-local checkpoint, gpu-f02's /scratch is full
# --------------------------------------------------------------------------

def gen_ckpt_disk_full():
    name = "ckpt-disk-full"
    rng = random.Random(12012)
    W = 16
    hosts = ["gpu-f01"] * 8 + ["gpu-f02"] * 8
    site = "/usr/local/lib/python3.12/dist-packages"
    log = Log()
    procs = [Proc(r, r % 8, hosts[r], (33120 if r < 8 else 35511) + 3 * (r % 8), rng, W) for r in range(W)]
    loc = "train.py"
    t0 = D(2025, 3, 4, 0, 10, 2, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(1500))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":51", "rank %d/%d on %s local_rank %d | torch 2.6.0+cu126"
                                      % (p.rank, W, p.host, p.lr)))
        t += S(seconds=3, milliseconds=rng.randrange(500))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=4, iface="ib0", ip="10.71.0.%d" % (1 if p.rank < 8 else 2), driver=12060)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=2)
        if p.lr == 0:
            log.add(t, p.rank, "o", pylog(t, "INFO", "ckpt.py:33", "node-local checkpoints in /scratch/ckpt (keep "
                                          "last 3), durable copy every 4000 steps to /lustre"))
    t = D(2025, 3, 4, 0, 10, 30, 0)
    step = 20000
    loss = 1.912
    t_save = D(2025, 3, 4, 2, 0, 11, 0)
    while True:
        nt = t + S(milliseconds=1640 + rng.randrange(30))
        if nt >= t_save:
            break
        t = nt
        step += 1
        loss += rng.uniform(-0.006, 0.0058)
        if step % 20 == 0:
            log.add(t, 0, "o", pylog(t, "INFO", loc + ":240", "step %d | loss %.4f | lr 1.20e-04 | %.1f ms/step" %
                                     (step, loss, 1655 + rng.uniform(-8, 8))))
        if step % 400 == 0:
            for p in procs:
                tt = t + S(milliseconds=20 + rng.randrange(40))
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":252", "step %d | rank %d | max_mem %.2f GiB | "
                                               "tokens/s %d" % (step, p.rank, 58.4 + rng.uniform(-.3, .3),
                                                                19800 + rng.randrange(300))))
    # checkpoint at the step boundary; local rank 0 of each node writes, the others go on
    tsv = t + S(milliseconds=120)
    for p in (procs[0], procs[8]):
        log.add(tsv + S(milliseconds=rng.randrange(30)), p.rank, "o",
                pylog(tsv, "INFO", "ckpt.py:61", "saving node-local checkpoint step %d to /scratch/ckpt/step_%d" % (step, step)))
    log.add(tsv + S(seconds=31, milliseconds=402), 0, "o",
            pylog(tsv + S(seconds=31, milliseconds=402), "INFO", "ckpt.py:74", "checkpoint step %d written (26.3 GiB, 31.4 s)" % step))
    p8 = procs[8]
    tfail = tsv + S(seconds=19, milliseconds=877)
    tb = [
        "Traceback (most recent call last):",
        "  File \"%s/torch/serialization.py\", line 944, in save" % site,
        "    _save(",
        "  File \"%s/torch/serialization.py\", line 1216, in _save" % site,
        "    zip_file.write_record(name, storage, num_bytes)",
        "RuntimeError: [enforce fail at inline_container.cc:778] . PytorchStreamWriter failed writing file data/211: "
        "file write failed",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        "  File \"/workspace/lm/train.py\", line 377, in <module>",
        "    main()",
        "  File \"/workspace/lm/train.py\", line 301, in main",
        "    ckpt.save_local(model, optimizer, step)",
        "  File \"/workspace/lm/ckpt.py\", line 66, in save_local",
        "    torch.save(optimizer.state_dict(), os.path.join(d, \"optim.pt\"))",
        "  File \"%s/torch/serialization.py\", line 943, in save" % site,
        "    with _open_zipfile_writer(f) as opened_zipfile:",
        "         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  File \"%s/torch/serialization.py\", line 784, in __exit__" % site,
        "    self.file_like.write_end_of_file()",
        "RuntimeError: [enforce fail at inline_container.cc:603] . unexpected pos 14178310720 vs 14178310608",
        ""]
    log.add(tfail, 8, "o", p8.hook(tb))
    tdw = tfail + S(milliseconds=402)
    log.add(tdw, 8, "o", destroy_warning(p8, tdw, 1496))
    log.add(tdw + S(seconds=2, milliseconds=117), -1, "srun", "srun: error: gpu-f02: task 8: Exited with exit code 1")
    # everyone else is in the next step's all-reduce; 30 min later the watchdogs fire
    seq = 2 * (step - 20000) + 88 + 1
    last = tdw
    for p in procs:
        if p.rank == 8:
            continue
        t_enq = tsv + S(seconds=2, milliseconds=rng.randrange(300)) if p.lr else tsv + S(seconds=33)
        ran = 1800000 + 30 + rng.randrange(60)
        tw = t_enq + S(milliseconds=ran + rng.randrange(6))
        for (tb_, lines) in watchdog_teardown(p, tw, rng, style="2.6", seq=seq, op="ALLREDUCE",
                                              nin=33554432, nout=33554432, timeout_ms=1800000, ran_ms=ran,
                                              enq=seq, done=seq - 1,
                                              lines_no=(632, 2168, 2421, 1706, 1440, 665, 671, 1908)):
            log.add(tb_, p.rank, "o", lines)
            last = max(last, tb_)
    tend = last + S(seconds=1, milliseconds=870)
    log.add(tend, -1, "srun", "srun: error: gpu-f01: tasks 0-7: Aborted (core dumped)")
    log.add(tend + S(milliseconds=3), -1, "srun", "srun: error: gpu-f02: tasks 9-15: Aborted (core dumped)")
    out = ["Job 612044 on gpu-f[01-02] started Tue Mar  4 00:09:58 UTC 2025",
           "+ srun --label --ntasks=16 --ntasks-per-node=8 python -u train.py --resume auto"]
    for (tt, _, rank, stream, lines) in log.merged():
        if rank < 0:
            out.extend(lines)
        else:
            out.extend("%2d: %s" % (rank, l) for l in lines)
    write(os.path.join(ROOT, name, "slurm-612044.out"), out, tend + S(milliseconds=3))
    write_truth(name, "failure", "8", "8", "disk-full")


# --------------------------------------------------------------------------
# 13. xid79-fell-off-bus: Slurm per-task files %j-%t.out, 1 node x 8, torch 2.5.1,
#     plus the node's kernel log (dmesg -T) and the batch output
# --------------------------------------------------------------------------

def gen_xid79():
    name = "xid79-fell-off-bus"
    rng = random.Random(13013)
    W = 8
    host = "gpu-g07"
    log = Log()
    procs = [Proc(r, r, host, 60710 + 4 * r, rng, W) for r in range(W)]
    loc = "train.py"
    t0 = D(2024, 6, 18, 10, 2, 30, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(900))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":35", "rank %d/%d cuda:%d | torch 2.5.1+cu124 | nccl 2.21.5"
                                      % (p.rank, W, p.lr)))
        t += S(seconds=3, milliseconds=rng.randrange(400))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=[host] * W,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=16, iface="eth0", ip="10.9.40.7", driver=12040)
        log.add(t, p.rank, "o", lines)
    t = D(2024, 6, 18, 10, 2, 50, 0)
    step = 0
    t_xid = D(2024, 6, 18, 12, 3, 1, 0)
    while True:
        nt = t + S(milliseconds=980 + rng.randrange(25))
        if nt >= t_xid - S(milliseconds=600):
            break
        t = nt
        step += 1
        if step % 50 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(20))
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":160", "step %d | loss %.4f | %.1f ms/step"
                                               % (step, 2.9 * (0.9998 ** step) + 0.7 + rng.uniform(-.02, .02),
                                                  985 + rng.uniform(-8, 8))))
    # kernel: GPU 3 (bus 5d) falls off the bus
    kern = []
    tb = D(2024, 6, 18, 7, 58, 12)
    kern += ["%s nvidia-nvlink: Nvlink Core is being initialized, major device number 509" % dmesg_t(tb),
             "%s NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024" % dmesg_t(tb),
             "%s nvidia-fs: Initializing nvfs driver module" % dmesg_t(tb + S(seconds=2)),
             "%s nvidia_peermem: module using GPL-only symbols uses symbols from proprietary module nvidia." % dmesg_t(tb + S(seconds=3)),
             "%s nvidia 0000:5d:00.0: enabling device (0000 -> 0002)" % dmesg_t(tb + S(seconds=3))]
    kern += ["%s NVRM: GPU at PCI:0000:5d:00: GPU-2f1c8a3e-5b7d-4c19-9e0a-7d3b6f1a2c44" % dmesg_t(t_xid),
             "%s NVRM: Xid (PCI:0000:5d:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus." % dmesg_t(t_xid),
             "%s NVRM: GPU 0000:5d:00.0: GPU has fallen off the bus." % dmesg_t(t_xid),
             "%s NVRM: A GPU crash dump has been created. If possible, please run" % dmesg_t(t_xid),
             "NVRM: nvidia-bug-report.sh as root to collect this data before",
             "NVRM: the NVIDIA kernel module is unloaded.",
             "%s pcieport 0000:5c:01.0: AER: Uncorrected (Fatal) error received: 0000:5c:01.0" % dmesg_t(t_xid + S(seconds=1))]
    write(os.path.join(ROOT, name, "dmesg-gpu-g07.log"), kern, t_xid + S(seconds=1))
    # rank 3 (cuda:3 = bus 5d000) fails at its next synchronisation, 2 s later
    p3 = procs[3]
    tf = t_xid + S(seconds=2, milliseconds=214)
    log.add(tf, 3, "o", p3.hook([
        "Traceback (most recent call last):",
        "  File \"/workspace/pt/train.py\", line 288, in <module>",
        "    main()",
        "  File \"/workspace/pt/train.py\", line 243, in main",
        "    if not torch.isfinite(loss).item():",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "RuntimeError: CUDA error: unspecified launch failure"] + CUDA_HINTS + [""]))
    tw = tf + S(milliseconds=38)
    term = pg25(3) + "Process group watchdog thread terminated with exception: CUDA error: unspecified launch failure"
    fr = frames_cuda_check(p3, SITE, "/pytorch")
    log.add(tw, 3, "o", [p3.c10(tw, "E", "ProcessGroupNCCL.cpp:1595", term)] + CUDA_HINTS + [""] + fr +
            ["terminate called after throwing an instance of 'c10::DistBackendError'", "  what():  " + term] +
            CUDA_HINTS + [""] + fr[:-1])
    # the others: all-reduce of the next step never completes
    seq = 2 * step + 18
    for p in procs:
        if p.rank == 3:
            continue
        ran = 600000 + 30 + rng.randrange(50)
        tt = t_xid + S(milliseconds=ran + 700 + rng.randrange(20))
        for (tb_, lines) in watchdog_teardown(p, tt, rng, style="2.4", seq=seq, op="ALLREDUCE",
                                              nin=50331648, nout=50331648, timeout_ms=600000, ran_ms=ran,
                                              enq=seq, done=seq - 1, dump=False,
                                              lines_no=(616, 1684, 0, 0, 0, 630, 636, 1595)):
            log.add(tb_, p.rank, "o", [l.replace("[PG 0 (default_pg) Rank", "[PG ID 0 PG GUID 0(default_pg) Rank")
                                       for l in lines])
    write_blocks_per_rank(log, procs, lambda p: os.path.join(ROOT, name, "4480012-%d.out" % p.rank))
    tend = t_xid + S(seconds=602)
    write(os.path.join(ROOT, name, "slurm-4480012.out"), [
        "Tue Jun 18 10:02:24 UTC 2024 job 4480012 on gpu-g07",
        "srun --output=%j-%t.out python -u train.py",
        "srun: error: gpu-g07: task 3: Aborted (core dumped)",
        "srun: error: gpu-g07: tasks 0-2,4-7: Aborted (core dumped)"], tend)
    write_truth(name, "failure", "3", "3", "gpu-xid")


# --------------------------------------------------------------------------
# 14. skip-allreduce-desync: flat worker-N.log, 2 nodes x 4, torch 2.6; rank 6
#     skips one all-reduce, so its collective sequence is one behind
# --------------------------------------------------------------------------

def gen_skip_allreduce_desync():
    name = "skip-allreduce-desync"
    rng = random.Random(14014)
    W = 8
    hosts = ["node-k1"] * 4 + ["node-k2"] * 4
    log = Log()
    procs = [Proc(r, r % 4, hosts[r], 412 + 7 * (r % 4), rng, W) for r in range(W)]
    loc = "trainer.py"
    t0 = D(2025, 1, 22, 18, 30, 1, 0)
    for p in procs:
        t = t0 + S(milliseconds=rng.randrange(1000))
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":40", "rank %d/%d on %s | torch 2.6.0+cu124 | nccl 2.21.5"
                                      % (p.rank, W, p.host)))
        t += S(seconds=3, milliseconds=rng.randrange(400))
        lines, _ = nccl_init(p, t, rng, ver="2.21.5+cuda12.4", nranks=W, comm_rank=p.rank, hosts_of_rank=hosts,
                             first_in_proc=True, print_version=(p.rank == 0), fn="ncclCommInitRankConfig",
                             channels=4, iface="eth0", ip="10.244.%d.5" % (1 if p.rank < 4 else 2), driver=12040)
        log.add(t, p.rank, "o", lines)
        t += S(seconds=1)
        log.add(t, p.rank, "o", pylog(t, "INFO", loc + ":88", "grad clipping with global norm all-reduce; "
                                      "skip_nonfinite_local=True"))
    t = D(2025, 1, 22, 18, 30, 20, 0)
    step = 0
    t_bad = D(2025, 1, 22, 19, 41, 7, 0)
    while True:
        nt = t + S(milliseconds=1660 + rng.randrange(30))
        if nt >= t_bad:
            break
        t = nt
        step += 1
        if step % 10 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(25))
                log.add(tt, p.rank, "o", pylog(tt, "INFO", loc + ":151", "step %d | loss %.4f | grad_norm %.3f | "
                                               "%.1f ms/step" % (step, 2.4 * (0.9996 ** step) + 0.9 + rng.uniform(-.02, .02),
                                                                 0.4 + rng.random() * 0.2, 1670 + rng.uniform(-10, 10))))
    # rank 6: non-finite local grad norm -> the buggy branch skips the norm all-reduce
    p6 = procs[6]
    tn = t + S(milliseconds=1410)
    log.add(tn, 6, "o", pylog(tn, "WARNING", "clip.py:47", "rank 6: local grad norm is inf at step %d, skipping "
                              "global norm sync and clipping locally" % (step + 1)))
    seq = 5120
    # others: 5120 = norm all-reduce (1 element), completes against rank 6's gradient all-reduce;
    # they enqueue 5121 (gradient all-reduce) which never completes. Rank 6 waits in its 5120.
    for p in procs:
        behind = (p.rank == 6)
        s = seq if behind else seq + 1
        t_enq = tn + S(milliseconds=90 + rng.randrange(30))
        ran = 600000 + 20 + rng.randrange(70)
        tw = t_enq + S(milliseconds=ran + rng.randrange(6))
        for (tb_, lines) in watchdog_teardown(p, tw, rng, style="2.6", seq=s, op="ALLREDUCE",
                                              nin=104857600, nout=104857600, timeout_ms=600000, ran_ms=ran,
                                              enq=s, done=s - 1,
                                              lines_no=(632, 2168, 2421, 1706, 1440, 665, 671, 1908)):
            log.add(tb_, p.rank, "o", lines)
    write_blocks_per_rank(log, procs, lambda p: os.path.join(ROOT, name, "worker-%d.log" % p.rank))
    write_truth(name, "hang", "none", "6", "collective-desync")


# --------------------------------------------------------------------------
# 15. thermal-straggler: torchrun --tee 3 console, 1 node x 8, torch 2.5, healthy;
#     rank 5's GPU throttles, its compute time is ~2x the others'
# --------------------------------------------------------------------------

def gen_thermal_straggler():
    name = "thermal-straggler"
    rng = random.Random(15015)
    W = 8
    host = "ws-a100-12"
    log = Log()
    agent_pid = 9120
    procs = [Proc(r, r, host, 9188 + 2 * r, rng, W) for r in range(W)]
    t0 = D(2024, 9, 9, 21, 15, 0, 300000)
    agent = [(t0, omp_warning(t0, agent_pid, 793))]
    loc = "train_dit.py"
    for p in procs:
        t = t0 + S(seconds=4, milliseconds=rng.randrange(700))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":49", "rank %d/%d cuda:%d | torch 2.5.0+cu121 | NVIDIA A100-SXM4-80GB"
                                        % (p.rank, W, p.lr)))
        t += S(seconds=3, milliseconds=rng.randrange(300))
        log.add(t, p.rank, "out", pylog(t, "INFO", loc + ":70", "DiT-XL/2, 675M params, bf16 autocast, DDP "
                                        "(static_graph=True), global batch 256"))
        if p.rank == 0:
            log.add(t + S(seconds=1), 0, "out", "NCCL version 2.21.5+cuda12.4")
    steps = 2000
    base = 612.0
    t = D(2024, 9, 9, 21, 15, 20, 0)
    for it in range(1, steps + 1):
        t = t + S(milliseconds=1262 + rng.uniform(-12, 12))
        if it % 20 == 0:
            for p in procs:
                tt = t + S(milliseconds=rng.randrange(20))
                comp = base * (2.03 if p.rank == 5 else 1.0) * (1 + rng.uniform(-0.015, 0.015))
                data = 8.0 + rng.uniform(-1.5, 1.5)
                log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":188", "step %d/%d | loss %.4f | fwd+bwd %.1f "
                                                 "ms/step | data %.1f ms | wait %.1f ms" % (
                                                     it, steps, 0.31 * (0.9994 ** it) + 0.12 + rng.uniform(-.005, .005),
                                                     comp, data, max(0.0, 1262 - comp - data - 18 + rng.uniform(-6, 6)))))
        if it % 500 == 0 and it < steps:
            for p in procs:
                tt = t + S(milliseconds=30 + rng.randrange(20))
                log.add(tt, p.rank, "out", pylog(tt, "INFO", "monitor.py:31", "gpu%d: sm_clock %d MHz, temp %d C, power "
                                                 "%d W, throttle %s" % (p.lr, 1005 if p.rank == 5 else 1410,
                                                                         87 if p.rank == 5 else 61 + rng.randrange(6),
                                                                         212 if p.rank == 5 else 395 + rng.randrange(10),
                                                                         "HW_THERMAL_SLOWDOWN" if p.rank == 5 else "none")))
    for p in procs:
        tt = t + S(milliseconds=300 + rng.randrange(80))
        log.add(tt, p.rank, "out", pylog(tt, "INFO", loc + ":220", "training complete: %d steps" % steps))
    end = t + S(seconds=1)
    ta = end + S(seconds=2)
    agent.append((ta, agentlog(ta, "I", agent_pid, "torch/distributed/elastic/agent/server/api.py:879",
                               "[default] worker group successfully finished. Waiting 300 seconds for other agents "
                               "to finish.")))
    per_rank = {p.rank: [(b[0], ln) for b in log.for_rank(p.rank) for ln in b[4]] for p in procs}
    out = tee_console([], per_rank, t0, end, rng, agent=agent)
    write(os.path.join(ROOT, name, "console.log"), out, ta)
    write_truth(name, "healthy", "none", "5", "straggler-rank")


def main_new():
    for n in NEW_SAMPLES:
        d = os.path.join(ROOT, n)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    gen_cuda_ima_watchdog()
    gen_host_oom_2node()
    gen_segfault_tee()
    gen_ib_link_down()
    gen_rdzv_dns_node()
    gen_shm_small_container()
    gen_ckpt_disk_full()
    gen_xid79()
    gen_skip_allreduce_desync()
    gen_thermal_straggler()



def main():
    for n in SAMPLES:
        d = os.path.join(ROOT, n)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    gen_fsdp_shape_hang()
    gen_nccl_version_mismatch()
    gen_oom_collateral()
    gen_silent_rank_hang()
    gen_ddp_bucket_slow()
    main_new()


if __name__ == "__main__":
    main()
