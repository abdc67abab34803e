#!/usr/bin/env python3
"""Generate a large synthetic training run for the rankwatch benchmark.

    python3 bench/genrun.py --ranks 256  --size 4MiB   OUTDIR   # 1 GiB
    python3 bench/genrun.py --ranks 4096 --size 256KiB OUTDIR   # 1 GiB, many files

Writes OUTDIR/rank<N>.log for N = 0 .. ranks-1 (the flat "rank-named" layout),
every file exactly --size bytes (1KiB at least; below 16KiB a compact layout,
see the end of this text).  Standard library only and deterministic: the
same arguments give byte-identical files (fixed seeds, fixed dates, no wall
clock; each rank has its own seed, so the worker-process count does not matter).

What a file looks like (shapes from the project's log-format reference,
/work/shared/reference/log-formats.md, and the rules/*.yaml examples; nothing
is copied from real logs):

  * start-up: Python-logging lines, NCCL_DEBUG=INFO bootstrap/init lines
    (`host:pid:tid [dev] NCCL INFO ...`), "NCCL version" on rank 0 only,
    c10 lines `[rankN]:[W1218 20:27:21.426415540 File.cpp:NN] ...`;
  * body (~99 % of the bytes): per-step training lines with a Python-logging
    header (`2024-12-18 20:27:21,426 INFO train.py:188 ...`) or a DeepSpeed
    header (`[2024-12-18 20:27:21,426] [INFO] [timer.py:264:stop] ...`), a rare
    tqdm progress bar (segments joined with `\\r`), periodic NCCL INFO lines
    (channel set-up of sub-communicators), c10 warnings, and "near misses":
    lines that share words with the signatures (out of memory, Watchdog,
    Timeout(ms)=, Sending process, NCCL version, OutOfMemoryError, exitcode,
    ...) but do not match them;
  * tail: one rank (--fail-rank, default ranks*5//13) dies of CUDA OOM - a
    Python traceback with the excepthook `[rankN]: ` prefix on every line; all
    the others report the NCCL watchdog timeout 600 s later (c10 `[rankN]:[E...`
    lines, the C++ exception with `what():` and `frame #N:` lines).

About 5 % of the lines match a signature - mostly the step-timing lines
(--timing-every), plus start-up facts, a few progress bars and warnings, and
the failure; the matcher has to reject everything else, which is the common
case in real logs.  Average line length is about 150 bytes.

The ranks run in lock-step (step times come from one random stream shared by
all ranks), so every file reaches the failure at about the same step and wall
time; because all files have the same size, a rank may stop a step or two
earlier or later than another.

Compact layout (--size below 16KiB, down to 1KiB; gen_rank_small): the same
run shortened to fit - rank 0's "NCCL version" line, an NCCL INFO
"ncclCommInitRank ... Init COMPLETE" line and a c10 ProcessGroupNCCL line
("ProcessGroupNCCL created ncclComm_ ... on CUDA device: N"), then one
step-timing line per step (as many steps as the largest rank's file has room
for, so all ranks stop at the same step; --timing-every does not apply), a
separator line to the exact size, and a short tail: the failing rank's
traceback cut to its last frame and a short CUDA OOM line, every other rank
the one c10 watchdog timeout line of the long tail.  Sizes from 16KiB up are
generated as before (gen_rank), byte for byte.

Speed: lines are built from %-templates with pre-formatted number columns,
each file is written with one write(), and ranks are spread over
os.cpu_count() worker processes: 1 GiB takes about 20 s on 2 idle cores.
"""

import argparse
import datetime as dtm
import multiprocessing
import os
import random
import re
import sys

START = dtm.datetime(2024, 12, 18, 19, 2, 11)
START_SOD = START.hour * 3600 + START.minute * 60 + START.second
STEP_MS = 1108.0          # mean step time
FIRST_STEP = 40000
SITE = "/usr/local/lib/python3.11/site-packages"
BUS = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
NCCL_VER = "2.21.5"


def parse_size(s):
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B?)?\s*", s, re.I)
    if not m:
        raise argparse.ArgumentTypeError("bad size: %r" % s)
    unit = (m.group(2) or "").upper().rstrip("B").rstrip("I")
    mult = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
    return int(float(m.group(1)) * mult)


class Clock:
    """Wall clock of one rank in integer milliseconds since START, with the
    header renderings cached per second (no strftime in the hot loop)."""

    def __init__(self, mono, total=0):
        self.total = total              # ms since START
        self.mono = mono                # CLOCK_MONOTONIC nanosecond offset
        self._sec = -1
        self._day = -1
        self._py = self._c10 = ""

    def advance(self, ms):
        self.total += int(ms)

    def _refresh(self, sec):
        self._sec = sec
        day, rem = divmod(sec + START_SOD, 86400)
        if day != self._day:
            self._day = day
            d = START.date() + dtm.timedelta(days=day)
            self._ymd = d.strftime("%Y-%m-%d")
            self._mmdd = "%d" % (d.month * 100 + d.day)
        hms = "%02d:%02d:%02d" % (rem // 3600, rem // 60 % 60, rem % 60)
        self._py = self._ymd + " " + hms
        self._c10 = self._mmdd + " " + hms

    def py(self):
        """'2024-12-18 20:27:21,426' (Python logging asctime)."""
        sec, ms = divmod(self.total, 1000)
        if sec != self._sec:
            self._refresh(sec)
        return "%s,%03d" % (self._py, ms)

    def c10(self, sev):
        """'W1218 20:27:21.426415540' (c10 MessageLogger, fraction from CLOCK_MONOTONIC)."""
        sec, ms = divmod(self.total, 1000)
        if sec != self._sec:
            self._refresh(sec)
        return "%s%s.%09d" % (sev, self._c10, (ms * 1000003 + self.mono) % 1000000000)


def _pool(n, seed, fmt, gen):
    r = random.Random(seed).random
    return [fmt % gen(r) for _ in range(n)]


# Pre-formatted number columns (float formatting is the slow part of Python).
P = 1021
STEP_TAILS = _pool(P, 1, "loss %.4f | lr 1.92e-04 | grad_norm %.3f | loss_scale 1.0 | skipped 0 | tokens %d",
                   lambda r: (2.05 + 0.2 * r(), 0.8 + 0.2 * r(), 65536 - int(r() * 64)))
TIMING_TAILS = _pool(P, 4, "%.1f ms/step | %.1f TFLOP/s | %.1f%% MFU | data %.1f ms",
                     lambda r: (STEP_MS * (0.97 + 0.06 * r()), 398 + 8 * r(), 40 + r(), 3 * r()))
TIMER_TAILS = _pool(P, 2, "RunningAvgSamplesPerSec=%.2f, CurrSamplesPerSec=%.2f, MemAllocated=%.2fGB, MaxMemAllocated=%.2fGB",
                    lambda r: (7.2 + r() * 0.1, 7.0 + r() * 0.5, 38 + r(), 61 + r()))
MEM_TAILS = _pool(P, 3, "max_mem_allocated %.2f GiB | tokens/s %d | data wait %.1f ms",
                  lambda r: (61 + r(), 14900 + int(300 * r()), 3 * r()))


def gen_rank(args):
    rank, world, size, fail_rank, outdir, timing_every = args
    rng = random.Random(0x5eed0000 + rank * 7919)
    rnd = rng.random
    # Decisions that change how many lines a step writes, and the step times,
    # come from one stream shared by all ranks, so the ranks stay in lock-step:
    # every rank writes step s at (nearly) the same time and fills its file
    # after (nearly) the same number of steps.
    drnd = random.Random(0xd1ce).random
    lr_ = rank % 8
    node = rank // 8
    host = "gpu-a%03d" % node
    pid = 41000 + 131 * lr_ + (node * 17) % 997
    init_tid = pid + 713
    ip = "10.31.%d.%d" % (node // 250, node % 250 + 2)
    clk = Clock(rng.randrange(10 ** 9))
    clk.advance(3 + (rank * 7) % 41)
    rp = "[rank%d]:" % rank
    ni_pre = "%s:%d:%%d [%d] NCCL INFO " % (host, pid, lr_)
    out = []
    add = out.append

    def ni(msg, tid=init_tid):
        add((ni_pre % tid) + msg)

    # ------------------------------------------------------------------ start-up
    add("%s INFO train.py:41 rank %d/%d on %s (local_rank %d) torch 2.5.1+cu124 python 3.11.10"
        % (clk.py(), rank, world, host, lr_))
    clk.advance(211)
    add("%s INFO train.py:77 model llama-8b: 8030.3M params, activation checkpointing on, micro batch 2 x 8192 tokens"
        % clk.py())
    clk.advance(1302)
    ni("Bootstrap : Using ib0:%s<0>" % ip, pid)
    ni("NET/Plugin: No plugin found (libnccl-net.so)", pid)
    ni("NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so", pid)
    ni("NET/Plugin: Using internal network plugin.", pid)
    ni("cudaDriverVersion 12040", pid)
    if rank == 0:
        add("NCCL version %s+cuda12.4" % NCCL_VER)
    ni("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB ib0:%s<0>" % ip)
    ni("Using non-device net plugin version 0")
    ni("Using network IB")
    comm = "0x%012x" % (0x55d1c2a00000 + rng.randrange(1 << 28) * 16)
    ni("ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId 0x%016x - Init START"
       % (comm, rank, world, lr_, lr_, BUS[lr_], 0x7a3f11c2d4e5b6a7))
    ni("Setting affinity for GPU %d to ffffffff,00000000,ffffffff" % lr_)
    ni("NVLS multicast support is not available on dev %d" % lr_)
    ni("comm %s rank %d nRanks %d nNodes %d localRanks 8 localRank %d MNNVL 0"
       % (comm, rank, world, (world + 7) // 8, lr_))
    for ch in range(0, 16, 4):
        ni("Channel %02d/16 :    0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15" % ch)
    ni("Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d" % ((rank + 1) % world, rank, (rank - 1) % world,
                                                      (rank + 1) % world, rank, (rank - 1) % world))
    ni("P2P Chunksize set to 131072")
    ni("Channel 00/1 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (rank, lr_, (rank + 1) % world, (lr_ + 1) % 8))
    ni("Connected all rings")
    ni("Connected all trees")
    ni("threadThresholds 8/8/64 | 2048/8/64 | 512 | 512")
    ni("24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer")
    ni("TUNER/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-tuner.so")
    ni("ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId 0x%016x - Init COMPLETE"
       % (comm, rank, world, lr_, lr_, BUS[lr_], 0x7a3f11c2d4e5b6a7))
    ni("Init timings: rank %d nranks %d total 1.21 (kernels 0.23, bootstrap 0.71, allgathers 0.02, topo 0.15, graphs 0.01, connections 0.08, rest 0.01)"
       % (rank, world))
    add("%s[%s ProcessGroupNCCL.cpp:943] [PG ID 0 PG GUID 0(default_pg) Rank %d] ProcessGroupNCCL initialization options: size: %d, global rank: %d, TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0"
        % (rp, clk.c10("I"), rank, world, rank))
    add("%s[%s ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0(default_pg) Rank %d]  using GPU %d to perform barrier as devices used by this process are currently unknown. This can potentially cause a hang if this rank to GPU mapping is incorrect.Specify device_ids in barrier() to force use of a particular device,or call init_process_group() with a device_id."
        % (rp, clk.c10("W"), rank, lr_))
    add("[%s] [INFO] [config.py:1003:print] DeepSpeedEngine configuration: zero_optimization.stage=3, bf16=True, gradient_accumulation_steps=4, train_micro_batch_size_per_gpu=2"
        % clk.py())

    # ------------------------------------------------------------------ body
    # bytes kept for the failure tail (measured on a throw-away clock) and the filler
    probe = Clock(clk.mono, clk.total)
    tail_budget = sum(len(l) + 1 for l in make_tail(rank, fail_rank, lr_, rp, probe, 5 * FIRST_STEP, random.Random(1).random)[1]) + 400
    budget = size - tail_budget - sum(len(l) + 1 for l in out)
    used = 0
    step = FIRST_STEP
    seq = 5 * FIRST_STEP
    subcomm = 0
    nearmiss = NEAR_MISS
    nn = len(nearmiss)
    warns = C10_WARN
    nw = len(warns)
    start_len = len(out)
    k0 = len(out)
    stride = 32                 # count bytes every `stride` steps, every step near the end
    while True:
        if step % stride == 0 or stride == 1:
            used += sum(map(len, out[k0:])) + len(out) - k0
            k0 = len(out)
            if used >= budget:
                break
            if budget - used < 40000:
                stride = 1
        clk.total += int(STEP_MS * 0.97) + int(drnd() * STEP_MS * 0.06)
        step += 1
        seq += 5
        ts = clk.py()
        j = (step * 7919 + rank * 104729) % P
        add("%s INFO train.py:188 step %d | %s" % (ts, step, STEP_TAILS[j]))
        if step % timing_every == 0:
            add("%s INFO train.py:196 step %d | %s" % (ts, step, TIMING_TAILS[j]))
        if step & 1:
            add("[%s] [INFO] [timer.py:264:stop] epoch=0/micro_step=%d/global_step=%d, %s"
                % (ts, step * 4, step, TIMER_TAILS[j]))
        r = drnd()
        if step % 10 == 0:
            add("[%s] [INFO] [logging.py:128:log_dist] [Rank %d] step=%d, skipped=0, lr=[1.920000e-04, 1.920000e-04], mom=[(0.9, 0.95), (0.9, 0.95)]"
                % (ts, rank, step))
        if step % 5 == 0:
            add("%s INFO train.py:201 step %d | %s | seq %d" % (ts, step, MEM_TAILS[j], seq))
        if step % 1000 == 7:
            n = step % 1000
            bars = []
            for j in range(4):
                done = (n + j) * 40 // 1000
                bars.append("Epoch 3:  %2d%%|%s%s| %d/1000 [%02d:%02d<%02d:%02d,  1.11s/it, loss=%.3f, v_num=0]"
                            % ((n + j) // 10, "#" * done, " " * (40 - done), n + j, (n + j) // 54, (n + j) % 60,
                               (1000 - n - j) // 54, (1000 - n - j) % 60, 2.1 + j * 0.013))
            add("\r".join(bars))
        if r < 0.20:
            add(nearmiss[int(drnd() * nn)](clk, rank, rp, host, pid, lr_, step, seq, rnd))
        if r > 0.92:
            add(warns[int(drnd() * nw)](clk, rank, rp, lr_))
        if step % 16 == 3:
            # a sub-communicator (e.g. an FSDP shard group) gets set up: NCCL channel lines
            subcomm += 1
            tid = pid + 900 + subcomm % 50
            c = "0x%012x" % (0x55d1d0000000 + subcomm * 0x1230)
            peer = (rank + 8) % world
            ni("Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA" % (subcomm % 24, rank, lr_, peer, peer % 8, lr_ // 2), tid)
            ni("Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d/GDRDMA" % (subcomm % 24, peer, peer % 8, rank, lr_, lr_ // 2), tid)
            ni("Connected all rings, use ring PXN 0 GDR 1 (comm %s)" % c, tid)

    # the rank that fails stops after step `step`; the others hang in the next all-reduce
    pad_head = "%s INFO train.py:244 " % clk.py()
    fail_t, tail = make_tail(rank, fail_rank, lr_, rp, clk, seq, rnd)

    # ------------------------------------------------------------------ exact size
    data = "\n".join(out)
    tail_s = "\n".join(tail) + "\n"
    room = size - len(data) - 1 - len(tail_s)
    # trim whole body lines if the tail was larger than foreseen (tiny --size)
    if room < 0:
        while room < 0 and len(out) > start_len:
            room += len(out.pop()) + 1
        data = "\n".join(out)
    pad = []
    head = pad_head
    while room > 0:
        # separator lines, as training scripts print them between phases
        if room - 1 <= 150:
            n = room - 1
        else:
            n = 150 if room - 1 - 150 >= 60 else (room - 1) // 2
        pad.append(head + "=" * (n - len(head)) if n >= len(head) + 8 else "=" * n)
        room -= n + 1
    blob = data + "\n" + ("\n".join(pad) + "\n" if pad else "") + tail_s
    raw = blob.encode("ascii")
    if len(raw) != size:
        raise SystemExit("rank %d: generated %d bytes, wanted %d (size too small?)" % (rank, len(raw), size))
    with open(os.path.join(outdir, "rank%d.log" % rank), "wb") as f:
        f.write(raw)
    return len(raw)


SMALL = 16384     # below this --size, the compact layout of gen_rank_small


def small_lines(rank, world, fail_rank, nsteps):
    """The compact layout's lines of one rank, with `nsteps` steps (the
    separator that brings it to the exact size is added by gen_rank_small).
    Returns (lines before the separator, tail lines)."""
    rng = random.Random(0x5eed0000 + rank * 7919)
    rnd = rng.random
    drnd = random.Random(0xd1ce).random     # shared by all ranks: lock-step
    lr_ = rank % 8
    node = rank // 8
    host = "gpu-a%03d" % node
    pid = 41000 + 131 * lr_ + (node * 17) % 997
    clk = Clock(rng.randrange(10 ** 9))
    clk.advance(3 + (rank * 7) % 41)
    rp = "[rank%d]:" % rank
    out = []
    add = out.append
    clk.advance(1513)
    if rank == 0:
        add("NCCL version %s+cuda12.4" % NCCL_VER)
    comm = "0x%012x" % (0x55d1c2a00000 + rng.randrange(1 << 28) * 16)
    add("%s:%d:%d [%d] NCCL INFO ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId 0x%016x - Init COMPLETE"
        % (host, pid, pid + 713, lr_, comm, rank, world, lr_, lr_, BUS[lr_], 0x7a3f11c2d4e5b6a7))
    add("%s[%s ProcessGroupNCCL.cpp:2012] [PG ID 0 PG GUID 0(default_pg) Rank %d] ProcessGroupNCCL created ncclComm_ %s on CUDA device: %d"
        % (rp, clk.c10("I"), rank, comm, lr_))
    step = FIRST_STEP
    for _ in range(nsteps):
        clk.total += int(STEP_MS * 0.97) + int(drnd() * STEP_MS * 0.06)
        step += 1
        j = (step * 7919 + rank * 104729) % P
        add("%s INFO train.py:196 step %d | %s" % (clk.py(), step, TIMING_TAILS[j]))
    add("%s INFO train.py:244 " % clk.py())     # the separator's head (replaced)
    fail_t = clk.total
    p = "[rank%d]: " % rank
    if rank == fail_rank:
        tail = [p + "Traceback (most recent call last):",
                p + '  File "/workspace/llm/model.py", line 262, in forward',
                p + "    logits = self.lm_head(h).float()",
                p + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU %d has a total capacity of 79.10 GiB of which 2.87 GiB is free." % lr_]
    else:
        clk.total = fail_t + 600000
        clk.advance(40 + 60 * rnd())
        ran = 600000 + int(30 + 70 * rnd())
        tail = ["%s[%s ProcessGroupNCCL.cpp:629] [Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran for %d milliseconds before timing out."
                % (rp, clk.c10("E"), rank, 5 * step + 1, ran)]
    return out, tail


def small_steps(world, size, fail_rank):
    """How many steps every rank of a compact run writes: as many as the
    rank with the longest start-up and tail has room for (rank 0 writes the
    NCCL version line; rank numbers and host names are longest on the last
    rank; the failing rank has its own tail), leaving a separator of at
    least 8 bytes.  The same for all ranks, so they stop in lock-step."""
    def need(rank, n):
        out, tail = small_lines(rank, world, fail_rank, n)
        return sum(len(l) + 1 for l in out[:-1] + tail) + 8
    base = max(need(r, 0) for r in {0, world - 1} | ({fail_rank} if 0 <= fail_rank < world else set()))
    per = need(world - 1, 1) - need(world - 1, 0)       # timing lines are fixed-width
    if base + per > size:
        raise SystemExit("genrun: --size %d is too small for %d ranks (need %d bytes)" % (size, world, base + per))
    return (size - base) // per


def gen_rank_small(args):
    rank, world, size, fail_rank, outdir, timing_every = args
    out, tail = small_lines(rank, world, fail_rank, small_steps(world, size, fail_rank))
    head = out.pop()
    data = "\n".join(out) + "\n"
    tail_s = "\n".join(tail) + "\n"
    room = size - len(data) - len(tail_s)       # the separator, newline included
    n = room - 1
    sep = head + "=" * (n - len(head)) if n >= len(head) + 8 else "=" * n
    raw = (data + sep + "\n" + tail_s).encode("ascii")
    if len(raw) != size:
        raise SystemExit("rank %d: generated %d bytes, wanted %d" % (rank, len(raw), size))
    with open(os.path.join(outdir, "rank%d.log" % rank), "wb") as f:
        f.write(raw)
    return len(raw)


def make_tail(rank, fail_rank, lr_, rp, clk, seq, rnd):
    """The last lines of a rank: CUDA OOM traceback on the failing rank, the
    NCCL watchdog timeout 600 s later on all others.  Returns (fail_t, lines)."""
    fail_t = clk.total
    tail = []
    if rank == fail_rank:
        clk.advance(640)
        tail += hook_traceback(rank, lr_)
        clk.advance(2100)
        tail.append("%s[%s ProcessGroupNCCL.cpp:1250] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())"
                    % (rp, clk.c10("W")))
    else:
        clk.total = fail_t + 600000
        clk.advance(40 + 60 * rnd())
        ran = 600000 + int(30 + 70 * rnd())
        sn = seq + 1
        wd = ("[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran for %d milliseconds before timing out."
              % (rank, sn, ran))
        pg = "[PG ID 0 PG GUID 0(default_pg) Rank %d]" % rank
        tail.append("%s[%s ProcessGroupNCCL.cpp:629] %s" % (rp, clk.c10("E"), wd))
        clk.advance(4)
        tail.append("%s[%s ProcessGroupNCCL.cpp:1785] %s Exception (either an error or timeout) detected by watchdog at work: %d, last enqueued NCCL work: %d, last completed NCCL work: %d."
                    % (rp, clk.c10("E"), pg, sn, sn + 1, sn - 1))
        tail.append("%s[%s ProcessGroupNCCL.cpp:1834] %s Timeout at NCCL work: %d, last enqueued NCCL work: %d, last completed NCCL work: %d."
                    % (rp, clk.c10("E"), pg, sn, sn + 1, sn - 1))
        tail.append("%s[%s ProcessGroupNCCL.cpp:643] [Rank %d] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."
                    % (rp, clk.c10("E"), rank))
        tail.append("%s[%s ProcessGroupNCCL.cpp:649] [Rank %d] To avoid data inconsistency, we are taking the entire process down."
                    % (rp, clk.c10("E"), rank))
        clk.advance(3)
        msg = "%s Process group watchdog thread terminated with exception: %s" % (pg, wd)
        tail.append("%s[%s ProcessGroupNCCL.cpp:1595] %s" % (rp, clk.c10("E"), msg))
        tail += cxx_exception(msg, rank)
        tail.append("terminate called after throwing an instance of 'c10::DistBackendError'")
        tail.append("  what():  " + msg)
        tail += cxx_exception(None, rank)

    return fail_t, tail


def hook_traceback(rank, lr_):
    p = "[rank%d]: " % rank
    lines = [
        "Traceback (most recent call last):",
        '  File "/workspace/llm/train.py", line 412, in <module>',
        "    main()",
        '  File "/workspace/llm/train.py", line 371, in main',
        "    loss = engine(batch)",
        "           ^^^^^^^^^^^^^",
        '  File "%s/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl' % SITE,
        "    return self._call_impl(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "%s/torch/nn/modules/module.py", line 1747, in _call_impl' % SITE,
        "    return forward_call(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "%s/deepspeed/runtime/engine.py", line 1899, in forward' % SITE,
        "    loss = self.module(*inputs, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "/workspace/llm/model.py", line 262, in forward',
        "    logits = self.lm_head(h).float()",
        "             ^^^^^^^^^^^^^^^^^^^^^^^",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU %d has a total capacity of 79.10 GiB of which 2.87 GiB is free. Including non-PyTorch memory, this process has 76.22 GiB memory in use. Of the allocated memory 71.48 GiB is allocated by PyTorch, and 3.19 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)" % lr_,
    ]
    return [p + l for l in lines]


def cxx_exception(msg, rank):
    base = 0x7f3a00000000 + (rank * 0x1000000)
    L = ["Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 (most recent call first):"
         if msg else
         "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1601 (most recent call first):"]
    frames = ["c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x%x in %s/torch/lib/libc10.so)" % (base + 0x942f86, SITE),
              "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x%x in %s/torch/lib/libtorch_cuda.so)" % (base + 0x28da8d2, SITE),
              "c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 (0x%x in %s/torch/lib/libtorch_cuda.so)" % (base + 0x28e1313, SITE),
              "c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x%x in %s/torch/lib/libtorch_cuda.so)" % (base + 0x28e271d, SITE),
              "<unknown function> + 0xdc253 (0x7f3a1f8b0253 in /lib/x86_64-linux-gnu/libstdc++.so.6)",
              "<unknown function> + 0x94ac3 (0x7f3a2063cac3 in /lib/x86_64-linux-gnu/libc.so.6)",
              "clone + 0x44 (0x7f3a206cd850 in /lib/x86_64-linux-gnu/libc.so.6)"]
    L += ["frame #%d: %s" % (i, f) for i, f in enumerate(frames)]
    L.append("")
    return L


# ---------------------------------------------------------------------- near misses
# Each shares words with a signature pattern but must not match any of them.

def _nm(fmt):
    return lambda clk, rank, rp, host, pid, lr_, step, seq, rnd: fmt % {
        "ts": clk.py(), "rank": rank, "step": step, "seq": seq, "host": host, "pid": pid,
        "lr": lr_, "c10w": clk.c10("W"), "c10i": clk.c10("I"), "rp": rp,
        "ms": int(600000 * (0.2 + rnd())), "mem": 60 + 10 * rnd()}


NEAR_MISS = [
    _nm("%(ts)s INFO train.py:201 step %(step)d | out of memory retries 0 | cuda memory reserved %(mem).2f GiB | allocator fragmentation 0.04"),
    _nm("%(ts)s INFO oom_guard.py:40 torch.OutOfMemoryError handler armed for step %(step)d (retries=2, shrink micro batch on CUDA OOM)"),
    _nm("%(ts)s INFO health.py:31 CUDA error counters on GPU %(lr)d: ecc_sbe=0 ecc_dbe=0 xid=0, nvlink replay=0, out of memory events=0"),
    _nm("%(ts)s INFO heartbeat.py:57 watchdog heartbeat ok: collective operation timeout is 600000 ms, last step %(step)d took %(ms)d us"),
    _nm("[%(ts)s] [INFO] [checkpointing.py:88:save] save at step %(step)d: Timeout(ms)=600000 for the barrier, last completed NCCL work: %(seq)d"),
    _nm("%(ts)s INFO dataloader.py:120 Sending process group barrier to all peers before shard rotation (step %(step)d, seq %(seq)d)"),
    _nm("%(ts)s INFO launcher.py:51 worker %(rank)d exitcode check: 0 failures, pid %(pid)d alive, restarts 0/3, rendezvous ok"),
    _nm("%(ts)s INFO comm_stats.py:66 backward comm time %(ms)d ns, comm/comp overlap ratio 0.91, 52 buckets (bucket_cap_mb 25)"),
    _nm("%(ts)s INFO train.py:233 Some NCCL operations completed late this interval: 0 of 4210 took longer than 10 s (step %(step)d)"),
    _nm("%(ts)s INFO signals.py:29 Received SIGUSR1 at step boundary %(step)d, scheduling checkpoint; no shutting down of workers needed"),
    _nm("%(ts)s INFO env.py:90 NCCL version check passed on %(host)s: runtime 2.21.5 == build 2.21.5, libnccl.so.2 from torch/lib"),
    _nm("%(ts)s WARNING data.py:311 sample %(seq)d: RuntimeError count 0, ValueError count 0, skipped 0 malformed documents in shard %(lr)d"),
    _nm("%(rp)s[%(c10i)s ProcessGroupNCCL.cpp:2012] [PG ID 3 PG GUID 11 Rank %(lr)d] ProcessGroupNCCL created ncclComm_ 0x55d1c2b3e0f0 on CUDA device: %(lr)d"),
    _nm("%(host)s:%(pid)d:%(pid)d [%(lr)d] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22. (Timeout(ms) derived: 4096 * 2^22 ns)"),
    _nm("%(host)s:%(pid)d:%(pid)d [%(lr)d] NCCL INFO [Service thread] Connection closed by localRank %(lr)d, no collective mismatch error"),
    _nm("%(ts)s INFO profiler.py:74 Avg backward compute time %(ms)d ns over 100 iterations (comm time not sampled at step %(step)d)"),
    _nm("%(ts)s INFO train.py:260 Watchdog stats: 0 collectives timed out, max in-flight 3, slowest ALLREDUCE 412 ms at SeqNum=%(seq)d"),
]

C10_WARN = [
    lambda clk, rank, rp, lr_: "%s[%s ProcessGroupNCCL.cpp:1168] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS=1 has no effect for point-to-point collectives. (function operator())" % (rp, clk.c10("W")),
    lambda clk, rank, rp, lr_: "%s[%s reducer.cpp:1400] Warning: find_unused_parameters=True was specified in DDP constructor, but did not find any unused parameters in the forward pass. This flag results in an extra traversal of the autograd graph every iteration. (function operator())" % (rp, clk.c10("W")),
    lambda clk, rank, rp, lr_: "%s[%s CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())" % (rp, clk.c10("W")),
    lambda clk, rank, rp, lr_: "%s[%s ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0(default_pg) Rank %d] Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Broken pipe" % (rp, clk.c10("W"), rank),
    lambda clk, rank, rp, lr_: "%s[%s Utils.hpp:164] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function operator())" % (rp, clk.c10("W")),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, default=256)
    ap.add_argument("--size", type=parse_size, default=parse_size("4MiB"), help="bytes per rank file (4MiB, 64KiB, ...; at least 1KiB, below 16KiB a compact layout)")
    ap.add_argument("--fail-rank", type=int, default=None, help="rank that hits CUDA OOM (default ranks*5//13)")
    ap.add_argument("--timing-every", type=int, default=10, metavar="N",
                    help="log interval of the step-timing line ('... 1108.3 ms/step ...', which rankwatch's "
                         "step-time signature matches): every N steps (default 10; below 16KiB every step)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("outdir")
    a = ap.parse_args()
    if a.size < 1024:
        ap.error("--size must be at least 1KiB")
    fail = a.fail_rank if a.fail_rank is not None else a.ranks * 5 // 13
    gen = gen_rank if a.size >= SMALL else gen_rank_small
    if gen is gen_rank_small:
        small_steps(a.ranks, a.size, fail)      # says so now if it does not fit
    os.makedirs(a.outdir, exist_ok=True)
    work = [(r, a.ranks, a.size, fail, a.outdir, max(1, a.timing_every)) for r in range(a.ranks)]
    if a.jobs > 1:
        with multiprocessing.Pool(a.jobs) as pool:
            total = sum(pool.imap_unordered(gen, work, chunksize=max(1, a.ranks // (8 * a.jobs))))
    else:
        total = sum(map(gen, work))
    print("genrun: %d files x %d bytes = %d bytes (%.1f MiB) in %s, failing rank %d"
          % (a.ranks, a.size, total, total / 1048576, a.outdir, fail), file=sys.stderr)


if __name__ == "__main__":
    main()
