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
    fr += [
        ("<unknown function> + 0xdc253", 0x7f3a1f8b0253, "/lib/x86_64-linux-gnu/libstdc++.so.6"),
        ("<unknown function> + 0x94ac3", 0x7f3a2063cac3, "/lib/x86_64-linux-gnu/libc.so.6"),
        ("clone + 0x44", 0x7f3a206cd850, "/lib/x86_64-linux-gnu/libc.so.6"),
    ]
    for i, (fn, addr, so) in enumerate(fr):
        path = so if so.startswith("/") else "%s/torch/lib/%s" % (lib, so)
        L.append("frame #%d: %s (0x%x in %s)" % (i, fn, addr, path))
    L.append("")
    return L


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
    agent = agentlog(t0, "W", agent_pid, "torch/distributed/run.py:793",
                     "\n*****************************************\n"
                     "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
                     "system being overloaded, please further tune the variable for optimal performance in your "
                     "application as needed. \n*****************************************")
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


if __name__ == "__main__":
    main()
