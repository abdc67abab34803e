#!/usr/bin/env python3
"""Helpers of bench/fleet-bench.sh (Python 3 standard library only): many
jobs followed at once by one `rankwatch --watch --format jsonl` each, while
a writer appends training lines to every rank file.

  fleet.py gen DIR --jobs N --ranks R [--steps S]
      DIR/job<j>/rank<r>.log for every job and rank: the start-up and the
      first S step-timing lines of genrun.py's compact layout (its
      small_lines), without the failure tail: a healthy run, a few hundred
      bytes per rank.

  fleet.py run DIR --jobs N --ranks R --rankwatch RW --mode inotify|poll
               --result JSON [--idle S] [--window S] [--period S]
               [--fail-jobs K] [--collateral-delay S] [--steps S] [--rw-arg OPT]...
      Starts one `RW --watch --format jsonl DIR/job<j>` per job (stdout to
      DIR/job<j>.<mode>.jsonl; --mode poll sets RANKWATCH_NO_INOTIFY=1, so
      that rankwatch polls every second as on NFS), waits for every first
      verdict, then
        idle:   S seconds without writes;
        window: S seconds in which every rank of every job appends one
                line (a step line; with genrun.py's odds a step-timing
                line, a near miss, a c10 warning) every --period seconds on
                average (uniform jitter of +-1/3); from 15 s before the end
                the first K jobs fail one a second: their rank R*5//13
                writes genrun.py's CUDA OOM traceback and the job's other
                ranks stop; --collateral-delay seconds later they write
                genrun.py's NCCL watchdog tail (the collateral).
      Meanwhile, every second: each process's CPU ticks (/proc/PID/stat),
      VmRSS, VmHWM, threads, open descriptors and inotify watches
      (/proc/PID/fd, fdinfo); and, between writes, the failing jobs' output
      files, for the arrival of the failing rank's event, of the failure
      verdict naming it, and of the collateral events of all other ranks.
      Writes JSON with everything measured to --result.

  fleet.py limit DIR --rankwatch RW --count N [--uid U]
      The inotify instance limit, on a user of its own (U, default nobody,
      so that no other process of the machine loses an instance): starts N
      `RW --watch --format jsonl` as U on a one-rank job in DIR, waits for
      each first verdict, counts those that say "inotify is not available"
      (and poll instead), then appends a CUDA OOM line and times its event
      in every process: inotify ones and polling ones apart.

  fleet.py table JSON...
      The table of fleet-bench.sh: per mode, the median over runs of each
      run's median over processes, and every raw run.
"""

import argparse
import heapq
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True      # no bench/__pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genrun  # noqa: E402  (its line shapes, clock and failure tails)

HZ = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def fail_rank(ranks):
    return ranks * 5 // 13      # genrun.py's default


# ---------------------------------------------------------------- gen

def gen(a):
    fr = fail_rank(a.ranks)
    total = 0
    for j in range(a.jobs):
        d = os.path.join(a.dir, "job%d" % j)
        os.makedirs(d, exist_ok=True)
        for r in range(a.ranks):
            out, _ = genrun.small_lines(r, a.ranks, fr, a.steps)
            raw = ("\n".join(out[:-1]) + "\n").encode("ascii")     # no separator, no tail
            with open(os.path.join(d, "rank%d.log" % r), "wb") as f:
                f.write(raw)
            total += len(raw)
    print("fleet: %d jobs x %d ranks, %d bytes (%.1f MiB, %.0f B/rank) in %s"
          % (a.jobs, a.ranks, total, total / 1048576, total / (a.jobs * a.ranks), a.dir))


# ---------------------------------------------------------------- /proc

def ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])


def status(pid):
    s = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                s[k] = int(v.split()[0])
            elif k == "Threads":
                s[k] = int(v)
    return s


def fds(pid):
    """(open descriptors, inotify instances, inotify watches)"""
    n = inst = watches = 0
    base = "/proc/%d/fd" % pid
    for fd in os.listdir(base):
        n += 1
        try:
            if os.readlink(os.path.join(base, fd)) == "anon_inode:inotify":
                inst += 1
                with open("/proc/%d/fdinfo/%s" % (pid, fd)) as f:
                    watches += sum(1 for l in f if l.startswith("inotify wd:"))
        except OSError:
            pass
    return n, inst, watches


def cpu_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v), v[3] + v[4]          # total, idle + iowait


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---------------------------------------------------------------- run

class Job:
    def __init__(self, j, a, env):
        self.j = j
        self.dir = os.path.join(a.dir, "job%d" % j)
        self.out = os.path.join(a.dir, "job%d.%s.jsonl" % (j, a.mode))
        self.err = os.path.join(a.dir, "job%d.%s.err" % (j, a.mode))
        self.t_start = time.monotonic()
        with open(self.out, "wb") as o, open(self.err, "wb") as e:
            self.p = subprocess.Popen([a.rankwatch, "--watch", "--format", "jsonl"] + a.rw_arg + [self.dir],
                                      stdout=o, stderr=e, env=env)
        self.pid = self.p.pid
        self.t_ready = None
        self.ticks_ready = None
        self.samples = []       # (t, ticks, rss, hwm, threads, fds, inotify, watches)
        self.failing = False
        self.pos = 0
        self.buf = b""
        self.t_fail = self.t_coll = None
        self.t_event = self.t_verdict = self.t_coll_done = None
        self.coll_ranks = set()
        self.fail_bytes = self.coll_bytes = 0

    def sample(self, t):
        try:
            s = status(self.pid)
            n, inst, w = fds(self.pid)
            self.samples.append((t, ticks(self.pid), s.get("VmRSS", 0), s.get("VmHWM", 0),
                                 s.get("Threads", 0), n, inst, w))
        except OSError:
            pass

    def check(self, fr, ranks):
        """Read what arrived in the output since the last look."""
        try:
            size = os.stat(self.out).st_size
        except OSError:
            return
        if size <= self.pos:
            return
        t = time.monotonic()
        with open(self.out, "rb") as f:
            f.seek(self.pos)
            chunk = f.read(size - self.pos)
        self.pos += len(chunk)
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if o.get("type") == "verdict":
                if self.t_ready is None:
                    self.t_ready = t
                if (self.t_fail is not None and self.t_verdict is None and
                        o.get("verdict") == "failure" and o.get("initiating") == fr):
                    self.t_verdict = t
            elif o.get("type") == "event" and self.t_fail is not None:
                ev = o.get("event", {})
                if self.t_event is None and ev.get("rank") == fr and ev.get("entry") == "cuda-oom":
                    self.t_event = t
                if self.t_coll is not None and ev.get("rank") not in (None, fr):
                    self.coll_ranks.add(ev["rank"])
                    if self.t_coll_done is None and len(self.coll_ranks) >= ranks - 1:
                        self.t_coll_done = t


class Rank:
    """What the writer needs of one rank file."""
    __slots__ = ("path", "fd", "rank", "lr", "host", "pid", "rp", "step", "seq", "rnd")

    def __init__(self, path, rank, steps):
        self.path = path
        self.fd = -1
        self.rank = rank
        self.lr = rank % 8
        node = rank // 8
        self.host = "gpu-a%03d" % node
        self.pid = 41000 + 131 * self.lr + (node * 17) % 997
        self.rp = "[rank%d]:" % rank
        self.step = genrun.FIRST_STEP + steps
        self.seq = 5 * self.step
        self.rnd = random.Random(0xf1ee7 + rank).random


def run(a):
    fr = fail_rank(a.ranks)
    env = dict(os.environ)
    env.pop("RANKWATCH_NO_INOTIFY", None)
    if a.mode == "poll":
        env["RANKWATCH_NO_INOTIFY"] = "1"
    res = {"mode": " ".join([a.mode] + a.rw_arg), "jobs": a.jobs, "ranks": a.ranks, "period": a.period,
           "idle_s": a.idle, "window_s": a.window, "fail_rank": fr, "load_start": load(),
           "nproc": os.cpu_count()}

    # ---- start every rankwatch and wait for each first verdict
    t_spawn = time.monotonic()
    jobs = [Job(j, a, env) for j in range(a.jobs)]
    deadline = t_spawn + a.ready_timeout
    while any(jb.t_ready is None for jb in jobs) and time.monotonic() < deadline:
        for jb in jobs:
            if jb.t_ready is None:
                jb.check(fr, a.ranks)
                if jb.t_ready is not None:
                    jb.ticks_ready = ticks(jb.pid)
                    jb.hwm_ready = status(jb.pid).get("VmHWM", 0)
                elif jb.p.poll() is not None:
                    sys.exit("fleet: rankwatch of job %d exited %s before its first verdict: %s"
                             % (jb.j, jb.p.returncode, open(jb.err).read()[:300]))
        time.sleep(0.02)
    if any(jb.t_ready is None for jb in jobs):
        for jb in jobs:
            jb.p.terminate()
        sys.exit("fleet: not every rankwatch gave its first verdict in %d s" % a.ready_timeout)
    res["ready_all_s"] = time.monotonic() - t_spawn
    # The writer stands for the compute nodes, whose CPU is not the login
    # node's: it runs ahead of the rankwatch processes, so that the lines
    # arrive at the rate asked even when those saturate the machine
    # (SCHED_RR when allowed: nice -10 weighs less than 64 processes' threads
    # at nice 0; it sleeps at least 2 ms every 20 ms of work, so it never
    # holds a core).  Else the rankwatch processes are reniced to 19.
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
        res["priority"] = "writer SCHED_RR, rankwatch at nice 0"
    except (OSError, AttributeError):
        for jb in jobs:
            os.setpriority(os.PRIO_PROCESS, jb.pid, 19)
        res["priority"] = "writer at nice 0, rankwatch at nice 19"
    time.sleep(1.0)

    def sample_all():
        t = time.monotonic()
        for jb in jobs:
            jb.sample(t)

    # ---- idle
    sample_all()
    b0 = cpu_busy()
    t_idle = time.monotonic()
    while time.monotonic() < t_idle + a.idle:
        time.sleep(1.0)
        sample_all()
    res["idle_measured_s"] = time.monotonic() - t_idle
    n_idle = len(jobs[0].samples)

    # ---- window: the writer, with as many rank files kept open as its
    # descriptor limit allows (raised after the rankwatch processes started)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.jobs * a.ranks + 256
    try:        # root may raise the hard limit
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft), max(want, hard)))
    except (OSError, ValueError):
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    keep_open = resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 256 - 4 * a.jobs
    ranks = [[Rank(os.path.join(jb.dir, "rank%d.log" % r), r, a.steps) for r in range(a.ranks)]
             for jb in jobs]
    opened = 0
    for jr in ranks:
        for rk in jr:
            if opened < keep_open:
                rk.fd = os.open(rk.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
                opened += 1
    res["writer_fds_kept_open"] = opened
    rng = random.Random(1234)
    t0 = time.monotonic()
    heap = [(t0 + rng.random() * a.period, j, r) for j in range(a.jobs) for r in range(a.ranks)]
    heapq.heapify(heap)
    clk = genrun.Clock(rng.randrange(10 ** 9))
    base_ms = 1600 + (a.steps + 2) * int(genrun.STEP_MS)
    nm, nn = genrun.NEAR_MISS, len(genrun.NEAR_MISS)
    cw, nw = genrun.C10_WARN, len(genrun.C10_WARN)
    P = genrun.P
    fail_at = {j: t0 + a.window - 15 + j for j in range(min(a.fail_jobs, a.jobs))}
    stopped = set()
    lines = writes = nbytes = 0
    lags = []
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    next_sample = t0 + 1.0
    end = t0 + a.window
    steady_end = t0 + a.window - 16     # before the first failure (see steady below)
    steady_lines = None
    failing = []

    def write(rk, s):
        nonlocal nbytes
        data = s.encode("ascii")
        if rk.fd >= 0:
            os.write(rk.fd, data)
        else:
            fd = os.open(rk.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
            os.write(fd, data)
            os.close(fd)
        nbytes += len(data)

    while True:
        now = time.monotonic()
        if now >= end and all(jb.t_coll_done is not None and jb.t_verdict is not None
                              and jb.t_event is not None for jb in failing):
            break
        if now >= end + a.grace:
            break
        if steady_lines is None and now >= steady_end:
            steady_lines = lines
        # failures due
        for j, t in list(fail_at.items()):
            if now >= t:
                del fail_at[j]
                jb = jobs[j]
                rk = ranks[j][fr]
                c = genrun.Clock(clk.mono, base_ms + int((now - t0) * 1000))
                _, tail = genrun.make_tail(fr, fr, rk.lr, rk.rp, c, rk.seq, rk.rnd)
                s = "\n".join(tail) + "\n"
                stopped.add(j)
                jb.failing = True
                jb.t_fail = time.monotonic()
                write(rk, s)
                jb.fail_bytes = len(s)
                failing.append(jb)
                jb.coll_due = jb.t_fail + a.collateral_delay
        for jb in failing:
            if jb.t_coll is None and now >= jb.coll_due:
                jb.t_coll = time.monotonic()
                c0 = base_ms + int((jb.t_fail - t0) * 1000)
                for rk in ranks[jb.j]:
                    if rk.rank == fr:
                        continue
                    c = genrun.Clock(clk.mono, c0)
                    _, tail = genrun.make_tail(rk.rank, fr, rk.lr, rk.rp, c, rk.seq, rk.rnd)
                    s = "\n".join(tail) + "\n"
                    write(rk, s)
                    jb.coll_bytes += len(s)
                jb.t_coll_written = time.monotonic()
        # progress lines due, for at most 20 ms, then look at the outputs
        limit = now + 0.02
        while heap and heap[0][0] <= now and time.monotonic() < limit:
            due, j, r = heapq.heappop(heap)
            if now < end:
                heapq.heappush(heap, (due + a.period * (0.6667 + 0.6667 * rng.random()), j, r))
            if j in stopped:
                continue
            rk = ranks[j][r]
            lags.append(now - due)
            clk.total = base_ms + int((now - t0) * 1000)
            rk.step += 1
            rk.seq += 5
            k = (rk.step * 7919 + rk.rank * 104729) % P
            ts = clk.py()
            s = "%s INFO train.py:188 step %d | %s\n" % (ts, rk.step, genrun.STEP_TAILS[k])
            n = 1
            if rk.step % 10 == 0:
                s += "%s INFO train.py:196 step %d | %s\n" % (ts, rk.step, genrun.TIMING_TAILS[k])
                n += 1
            x = rk.rnd()
            if x < 0.20:
                s += nm[int(rk.rnd() * nn)](clk, rk.rank, rk.rp, rk.host, rk.pid, rk.lr, rk.step, rk.seq, rk.rnd) + "\n"
                n += 1
            elif x > 0.92:
                s += cw[int(rk.rnd() * nw)](clk, rk.rank, rk.rp, rk.lr) + "\n"
                n += 1
            write(rk, s)
            writes += 1
            lines += n
        for jb in failing:
            jb.check(fr, a.ranks)
        now = time.monotonic()
        if now >= next_sample:
            sample_all()
            next_sample += 1.0
        nxt = min(heap[0][0] if heap else now + 0.005, now + 0.005)
        time.sleep(max(nxt - now, 0.002))
    t1 = time.monotonic()
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    b1 = cpu_busy()
    sample_all()
    for jr in ranks:
        for rk in jr:
            if rk.fd >= 0:
                os.close(rk.fd)

    # ---- stop
    for jb in jobs:
        jb.p.send_signal(signal.SIGTERM)
    rcs = [jb.p.wait() for jb in jobs]
    for jb in jobs:
        jb.check(fr, a.ranks)

    lags.sort()
    res.update({
        "window_measured_s": t1 - t0,
        "writer": {"writes": writes, "lines": lines, "bytes": nbytes,
                   "lines_per_s": lines / (t1 - t0), "writes_per_s": writes / (t1 - t0),
                   # every job writing, before the first failure: what the steady CPU read
                   "steady_lines_per_s": steady_lines / (steady_end - t0) if steady_lines else None,
                   "lag_median_ms": 1000 * lags[len(lags) // 2] if lags else None,
                   "lag_p99_ms": 1000 * lags[int(len(lags) * 0.99)] if lags else None,
                   "cpu_s": (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)},
        "machine_busy": 1 - (b1[1] - b0[1]) / max(1, b1[0] - b0[0]),
        "load_end": load(), "exit_codes": sorted(set(rcs)),
    })
    procs = []
    for jb in jobs:
        s = jb.samples
        idle = s[:n_idle]
        win = s[n_idle - 1:]
        steady = [x for x in win if x[0] < t0 + a.window - 16]
        verdicts = events = 0
        with open(jb.out, "rb") as f:
            for line in f:
                if line.startswith(b'{"type": "verdict"'):
                    verdicts += 1
                elif line.startswith(b'{"type": "event"'):
                    events += 1
        p = {
            "job": jb.j, "ready_s": jb.t_ready - jb.t_start,
            "cpu_ready_s": jb.ticks_ready / HZ, "hwm_ready_kib": jb.hwm_ready,
            "idle_cpu_s": (idle[-1][1] - idle[0][1]) / HZ, "idle_s": idle[-1][0] - idle[0][0],
            "win_cpu_s": (win[-1][1] - win[0][1]) / HZ, "win_s": win[-1][0] - win[0][0],
            "steady_cpu_s": (steady[-1][1] - steady[0][1]) / HZ if len(steady) > 1 else None,
            "steady_s": steady[-1][0] - steady[0][0] if len(steady) > 1 else None,
            "rss_steady_kib": statistics.median(x[2] for x in steady) if steady else None,
            "hwm_kib": max(x[3] for x in s), "threads_max": max(x[4] for x in s),
            "fds_max": max(x[5] for x in s), "fds_min": min(x[5] for x in s),
            "inotify_instances": max(x[6] for x in s), "inotify_watches": max(x[7] for x in s),
            "verdict_lines": verdicts, "event_lines": events,
        }
        if jb.t_fail is not None:
            p.update({
                "fail_event_ms": 1000 * (jb.t_event - jb.t_fail) if jb.t_event else None,
                "fail_verdict_ms": 1000 * (jb.t_verdict - jb.t_fail) if jb.t_verdict else None,
                "collateral_all_ms": 1000 * (jb.t_coll_done - jb.t_coll) if jb.t_coll_done else None,
                "collateral_write_ms": 1000 * (jb.t_coll_written - jb.t_coll),
                "collateral_ranks_seen": len(jb.coll_ranks), "collateral_bytes": jb.coll_bytes,
            })
        procs.append(p)
    res["procs"] = procs
    with open(a.result, "w") as f:
        json.dump(res, f, indent=1)
    print("fleet: %s (%s): %d jobs ready in %.1f s; window %.1f s, writer %.0f lines/s (lag median %.1f ms, p99 %.1f ms, %.1f CPU s), machine %.0f%% busy, load %s"
          % (a.mode, res["priority"], a.jobs, res["ready_all_s"], res["window_measured_s"], res["writer"]["lines_per_s"],
             res["writer"]["lag_median_ms"] or 0, res["writer"]["lag_p99_ms"] or 0, res["writer"]["cpu_s"],
             100 * res["machine_busy"], res["load_end"]))


# ---------------------------------------------------------------- limit

def limit(a):
    os.makedirs(a.dir, exist_ok=True)
    log = os.path.join(a.dir, "rank0.log")
    out, _ = genrun.small_lines(0, 1, -1, 4)
    with open(log, "w") as f:
        f.write("\n".join(out[:-1]) + "\n")

    def as_user():
        os.setgroups([])
        os.setgid(a.uid)
        os.setuid(a.uid)

    procs = []
    for i in range(a.count):
        o = open(os.path.join(a.dir, "w%d.jsonl" % i), "wb")
        e = open(os.path.join(a.dir, "w%d.err" % i), "wb")
        procs.append((subprocess.Popen([a.rankwatch, "--watch", "--format", "jsonl", a.dir],
                                       stdout=o, stderr=e, preexec_fn=as_user), o.name, e.name))
        o.close()
        e.close()
        time.sleep(0.01)    # in order: the first ones get the instances
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(os.path.getsize(o) > 0 for _, o, _ in procs):
        time.sleep(0.05)
    fell = [i for i, (_, _, e) in enumerate(procs) if b"inotify is not available" in open(e, "rb").read()]
    first_msg = next((l for l in open(procs[fell[0]][2]).read().splitlines() if "inotify" in l), "") if fell else ""
    sizes = [os.path.getsize(o) for _, o, _ in procs]
    t = time.monotonic()
    with open(log, "a") as f:
        f.write("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB.\n")
    lat = {}
    while time.monotonic() < t + 10 and len(lat) < len(procs):
        for i, (_, o, _) in enumerate(procs):
            if i not in lat and os.path.getsize(o) > sizes[i]:
                with open(o, "rb") as f:
                    f.seek(sizes[i])
                    if b'"cuda-oom"' in f.read():
                        lat[i] = time.monotonic() - t
        time.sleep(0.005)
    for p, _, _ in procs:
        p.terminate()
    rcs = sorted(set(p.wait() for p, _, _ in procs))
    ok = [1000 * lat[i] for i in range(len(procs)) if i not in fell and i in lat]
    pl = [1000 * lat[i] for i in fell if i in lat]
    print("  %d processes as uid %d: %d with inotify, %d without (the first of them: #%d); stderr: %s"
          % (len(procs), a.uid, len(procs) - len(fell), len(fell), fell[0] + 1 if fell else 0, first_msg))
    print("  a failure line appended: its event in %d of %d processes; inotify ones median %s ms, polling ones median %s ms (max %s ms); exit %s"
          % (len(lat), len(procs), fmt(med(ok), "%.0f"), fmt(med(pl), "%.0f"), fmt(max(pl) if pl else None, "%.0f"), rcs))


# ---------------------------------------------------------------- table

def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def fmt(x, spec):
    return "-" if x is None else spec % x


def table(a):
    runs = [json.load(open(p)) for p in a.results]
    modes = []
    for r in runs:
        if r["mode"] not in modes:
            modes.append(r["mode"])

    def per_run(r):
        ps, R = r["procs"], r["ranks"]
        lat = [p for p in ps if "fail_event_ms" in p]
        return {
            "ready_s": med(p["ready_s"] for p in ps),
            "ready_all_s": r["ready_all_s"],
            "cpu_ready_ms_rank": med(1000 * p["cpu_ready_s"] / R for p in ps),
            "idle_pct": med(100 * p["idle_cpu_s"] / p["idle_s"] for p in ps),
            "idle_us_file_s": med(1e6 * p["idle_cpu_s"] / p["idle_s"] / R for p in ps),
            "steady_pct": med(100 * p["steady_cpu_s"] / p["steady_s"] for p in ps if p["steady_s"]),
            "steady_max_pct": max(100 * p["steady_cpu_s"] / p["steady_s"] for p in ps if p["steady_s"]),
            "steady_us_rank_s": med(1e6 * p["steady_cpu_s"] / p["steady_s"] / R for p in ps if p["steady_s"]),
            "us_line": med(1e6 * p["steady_cpu_s"] / p["steady_s"] /
                           (r["writer"].get("steady_lines_per_s") or r["writer"]["lines_per_s"]) * r["jobs"]
                           for p in ps if p["steady_s"]),
            "sum_cores": sum(p["steady_cpu_s"] / p["steady_s"] for p in ps if p["steady_s"]),
            "rss_mib": med(p["rss_steady_kib"] / 1024 for p in ps if p["rss_steady_kib"]),
            "rss_kib_rank": med(p["rss_steady_kib"] / R for p in ps if p["rss_steady_kib"]),
            "hwm_mib": max(p["hwm_kib"] for p in ps) / 1024,
            "hwm_kib_rank": med(p["hwm_kib"] / R for p in ps),
            "fds": max(p["fds_max"] for p in ps),
            "watches": max(p["inotify_watches"] for p in ps),
            "instances": max(p["inotify_instances"] for p in ps),
            "threads": max(p["threads_max"] for p in ps),
            "ev_ms": med(p["fail_event_ms"] for p in lat),
            "ev_max_ms": max((p["fail_event_ms"] or 1e9 for p in lat), default=None),
            "vd_ms": med(p["fail_verdict_ms"] for p in lat),
            "coll_ms": med(p["collateral_all_ms"] for p in lat),
            "coll_max_ms": max((p["collateral_all_ms"] or 1e9 for p in lat), default=None),
            "lost": sum(1 for p in lat if p["fail_event_ms"] is None or p["fail_verdict_ms"] is None
                        or p["collateral_all_ms"] is None),
            "nlat": len(lat),
            "lines_s": r["writer"]["lines_per_s"], "writer_cpu_pct": 100 * r["writer"]["cpu_s"] / r["window_measured_s"],
            "lag_p99": r["writer"]["lag_p99_ms"], "busy": 100 * r["machine_busy"],
            "load": r["load_start"] + " -> " + r["load_end"], "rc": r["exit_codes"],
        }

    rows = [
        ("first verdict after start, s (median process / all)", lambda d: "%s / %s" % (fmt(d["ready_s"], "%.1f"), fmt(d["ready_all_s"], "%.1f"))),
        ("CPU to the first verdict, ms per rank", lambda d: fmt(d["cpu_ready_ms_rank"], "%.3f")),
        ("idle CPU, % of a core per process", lambda d: fmt(d["idle_pct"], "%.2f")),
        ("idle CPU, us per file per second", lambda d: fmt(d["idle_us_file_s"], "%.2f")),
        ("writing: CPU, % of a core per process (median / max)", lambda d: "%s / %s" % (fmt(d["steady_pct"], "%.1f"), fmt(d["steady_max_pct"], "%.1f"))),
        ("writing: CPU, us per rank per second", lambda d: fmt(d["steady_us_rank_s"], "%.1f")),
        ("writing: CPU, us per line read", lambda d: fmt(d["us_line"], "%.1f")),
        ("writing: all processes, cores", lambda d: fmt(d["sum_cores"], "%.2f")),
        ("steady RSS, MiB per process (KiB per rank)", lambda d: "%s (%s)" % (fmt(d["rss_mib"], "%.1f"), fmt(d["rss_kib_rank"], "%.1f"))),
        ("peak RSS (VmHWM), MiB, max process (KiB per rank, median)", lambda d: "%s (%s)" % (fmt(d["hwm_mib"], "%.1f"), fmt(d["hwm_kib_rank"], "%.1f"))),
        ("descriptors held, max sampled", lambda d: "%d" % d["fds"]),
        ("inotify instances / watches per process", lambda d: "%d / %d" % (d["instances"], d["watches"])),
        ("threads, max", lambda d: "%d" % d["threads"]),
        ("failure line -> its event, ms (median / max)", lambda d: "%s / %s" % (fmt(d["ev_ms"], "%.0f"), fmt(d["ev_max_ms"], "%.0f"))),
        ("failure line -> failure verdict, ms (median)", lambda d: fmt(d["vd_ms"], "%.0f")),
        ("collateral burst -> last rank's event, ms (median / max)", lambda d: "%s / %s" % (fmt(d["coll_ms"], "%.0f"), fmt(d["coll_max_ms"], "%.0f"))),
        ("failing jobs measured (missed)", lambda d: "%d (%d)" % (d["nlat"], d["lost"])),
        ("writer: lines/s (its CPU %; lag p99 ms)", lambda d: "%.0f (%.0f%%; %s)" % (d["lines_s"], d["writer_cpu_pct"], fmt(d["lag_p99"], "%.0f"))),
        ("machine busy in the window, %", lambda d: "%.0f" % d["busy"]),
    ]
    raw = {m: [per_run(r) for r in runs if r["mode"] == m] for m in modes}
    r0 = runs[0]
    print("  %d jobs x %d ranks, one line per rank every %.1f s on average, %d s window; median over runs of the median process"
          % (r0["jobs"], r0["ranks"], r0["period"], r0["window_s"]))
    w = max(len(n) for n, _ in rows)
    print("  %-*s  %s" % (w, "", "  ".join("%-22s" % ("%s (%d runs)" % (m, len(raw[m]))) for m in modes)))
    numeric = {"ready_s", "ready_all_s", "cpu_ready_ms_rank", "idle_pct", "idle_us_file_s", "steady_pct",
               "steady_max_pct", "steady_us_rank_s", "us_line", "sum_cores", "rss_mib", "rss_kib_rank", "hwm_mib",
               "hwm_kib_rank", "ev_ms", "ev_max_ms", "vd_ms", "coll_ms", "coll_max_ms", "lines_s", "writer_cpu_pct",
               "lag_p99", "busy"}
    medians = {}
    for m in modes:
        d = {}
        for k in raw[m][0]:
            vals = [x[k] for x in raw[m]]
            if k in numeric:
                d[k] = med(vals)
            elif k in ("fds", "watches", "instances", "threads", "lost", "nlat"):
                d[k] = max(vals) if k not in ("nlat", "lost") else sum(vals)
            else:
                d[k] = vals[0]
        medians[m] = d
    for name, f in rows:
        print("  %-*s  %s" % (w, name, "  ".join("%-22s" % f(medians[m]) for m in modes)))
    if len(modes) == 2 and medians[modes[0]]["idle_pct"] is not None:
        a_, b_ = medians["poll"] if "poll" in medians else None, medians.get("inotify")
        if a_ and b_ and b_["steady_pct"]:
            print("  poll / inotify while writing: CPU x%.2f; idle: %.2f%% vs %.2f%% of a core"
                  % (a_["steady_pct"] / b_["steady_pct"], a_["idle_pct"], b_["idle_pct"]))
    print()
    print("  every run:")
    for m in modes:
        for i, d in enumerate(raw[m]):
            print("   %-7s #%d  ready %s s, CPU %s%% (max %s%%), %s us/rank/s, idle %s%%, RSS %s MiB, HWM %s MiB, fds %d, event %s ms, verdict %s ms, collateral %s ms, writer %.0f lines/s, busy %.0f%%, load %s, exit %s"
                  % (m, i + 1, fmt(d["ready_all_s"], "%.1f"), fmt(d["steady_pct"], "%.1f"), fmt(d["steady_max_pct"], "%.1f"),
                     fmt(d["steady_us_rank_s"], "%.1f"), fmt(d["idle_pct"], "%.2f"), fmt(d["rss_mib"], "%.1f"),
                     fmt(d["hwm_mib"], "%.1f"), d["fds"], fmt(d["ev_ms"], "%.0f"), fmt(d["vd_ms"], "%.0f"),
                     fmt(d["coll_ms"], "%.0f"), d["lines_s"], d["busy"], d["load"], d["rc"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("dir")
    g.add_argument("--jobs", type=int, required=True)
    g.add_argument("--ranks", type=int, required=True)
    g.add_argument("--steps", type=int, default=8)
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--jobs", type=int, required=True)
    r.add_argument("--ranks", type=int, required=True)
    r.add_argument("--steps", type=int, default=8)
    r.add_argument("--rankwatch", required=True)
    r.add_argument("--mode", choices=("inotify", "poll"), required=True)
    r.add_argument("--result", required=True)
    r.add_argument("--rw-arg", action="append", default=[], help="an option for every rankwatch (-j1, --poll=250)")
    r.add_argument("--idle", type=float, default=10)
    r.add_argument("--window", type=float, default=60)
    r.add_argument("--period", type=float, default=1.5)
    r.add_argument("--fail-jobs", type=int, default=8)
    r.add_argument("--collateral-delay", type=float, default=3)
    r.add_argument("--grace", type=float, default=30)
    r.add_argument("--ready-timeout", type=float, default=600)
    li = sub.add_parser("limit")
    li.add_argument("dir")
    li.add_argument("--rankwatch", required=True)
    li.add_argument("--count", type=int, required=True)
    li.add_argument("--uid", type=int, default=65534)
    t = sub.add_parser("table")
    t.add_argument("results", nargs="+")
    a = ap.parse_args()
    {"gen": gen, "run": run, "limit": limit, "table": table}[a.cmd](a)


if __name__ == "__main__":
    main()
