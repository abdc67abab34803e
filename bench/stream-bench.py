#!/usr/bin/env python3
"""stream-bench.py: what following a job on a pipe costs, as
`kubectl logs -f --prefix --timestamps ... | rankwatch --watch -` or
`logcli query --tail --output=jsonl ... | rankwatch --watch -` do it.

One writer (this script) plays the pods: R pods of a PyTorchJob
(<job>-master-0, <job>-worker-N), each printing a training line every
PERIOD s (uniform jitter of a third), wrapped as the tool prints it; after
WINDOW s one pod prints a CUDA OOM and, 2 s later, every other pod a
watchdog timeout. rankwatch reads the pipe. Per round: rankwatch's CPU
(utime + stime from /proc), its peak RSS, and the time from the failure
line's write to its event on rankwatch's output, and to the last
collateral rank's event. Medians of the rounds, every round printed.

Usage: stream-bench.py RANKWATCH [--pods R] [--period S] [--window S]
                       [--rounds N] [--format kubectl|loki]
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import threading
import time

HZ = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / HZ


def hwm_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for ln in f:
            if ln.startswith("VmHWM:"):
                return int(ln.split()[1])
    return 0


def pod_name(rank):
    return "train-master-0" if rank == 0 else "train-worker-%d" % (rank - 1)


def wrap(fmt, rank, t, line):
    ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%09dZ" % int((t % 1) * 1e9)
    if fmt == "kubectl":
        return "[pod/%s/pytorch] %s %s\n" % (pod_name(rank), ts, line)
    return json.dumps({"labels": {"container": "pytorch", "pod": pod_name(rank)},
                       "line": line, "timestamp": ts}, separators=(",", ":")) + "\n"


def c10(rank, t, msg):
    lt = time.gmtime(t)
    return "[rank%d]:[E%02d%02d %s.%06d000 ProcessGroupNCCL.cpp:632] %s" % (
        rank, lt.tm_mon, lt.tm_mday, time.strftime("%H:%M:%S", lt), int((t % 1) * 1e6), msg)


def one_round(a, rnd):
    rng = random.Random(rnd)
    p = subprocess.Popen([a.rankwatch, "--watch", "--format", "jsonl", "-"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    seen = {}
    ranks_seen = set()

    def reader():
        for ln in p.stdout:
            now = time.monotonic()
            try:
                d = json.loads(ln)
            except ValueError:
                continue
            if d.get("type") == "event":
                ev = d["event"]
                if ev.get("entry") == "cuda-oom" and "oom" not in seen:
                    seen["oom"] = now
                if ev.get("role") == "collateral":
                    ranks_seen.add(ev.get("rank"))
                    if len(ranks_seen) == a.pods - 1 and "last" not in seen:
                        seen["last"] = now
    th = threading.Thread(target=reader, daemon=True)
    th.start()
    fail = a.pods * 5 // 13
    nxt = [time.monotonic() + rng.random() * a.period for _ in range(a.pods)]
    start = time.monotonic()
    c0 = cpu_s(p.pid)
    lines = 0
    step = 4000
    while True:
        now = time.monotonic()
        if now - start >= a.window:
            break
        due = [r for r in range(a.pods) if nxt[r] <= now]
        out = []
        for r in due:
            out.append(wrap(a.format, r, time.time(),
                            "%s,%03d INFO train.py:201 step %d | loss %.4f | %.1f TFLOP/s"
                            % (time.strftime("%Y-%m-%d %H:%M:%S"), int(time.time() * 1000) % 1000,
                               step, 2 + rng.random() * 0.1, 390 + rng.random() * 10)))
            nxt[r] = now + a.period * (2 / 3 + rng.random() * 2 / 3)
        if out:
            p.stdin.write("".join(out))
            p.stdin.flush()
            lines += len(out)
            step += 1
        time.sleep(0.005)
    busy = cpu_s(p.pid) - c0
    elapsed = time.monotonic() - start
    t_fail = time.monotonic()
    p.stdin.write(wrap(a.format, fail, time.time(),
                       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB."))
    p.stdin.flush()
    time.sleep(2)
    t_coll = time.monotonic()
    out = []
    for r in range(a.pods):
        if r != fail:
            out.append(wrap(a.format, r, time.time(), c10(r, time.time(),
                "[PG ID 0 PG GUID 0(default_pg) Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4017, OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran for 600031 milliseconds before timing out." % r)))
    p.stdin.write("".join(out))
    p.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and ("oom" not in seen or "last" not in seen):
        time.sleep(0.01)
    hwm = hwm_kib(p.pid)
    p.stdin.close()
    p.wait(timeout=30)
    th.join(timeout=5)
    return {
        "lines_per_s": lines / elapsed,
        "cpu_pct": 100 * busy / elapsed,
        "us_per_line": 1e6 * busy / max(lines, 1),
        "hwm_mib": hwm / 1024,
        "fail_ms": 1000 * (seen["oom"] - t_fail) if "oom" in seen else None,
        "coll_ms": 1000 * (seen["last"] - t_coll) if "last" in seen else None,
        "exit": p.returncode,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rankwatch")
    ap.add_argument("--pods", type=int, default=1024)
    ap.add_argument("--period", type=float, default=1.5)
    ap.add_argument("--window", type=float, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--format", choices=["kubectl", "loki"], default="kubectl")
    a = ap.parse_args()
    rows = []
    for rnd in range(a.rounds):
        r = one_round(a, rnd)
        rows.append(r)
        print("  round %d: %.0f lines/s, CPU %.1f %% of a core (%.0f us a line), peak RSS "
              "%.1f MiB, failure->event %s ms, collateral->last event %s ms, exit %s"
              % (rnd + 1, r["lines_per_s"], r["cpu_pct"], r["us_per_line"], r["hwm_mib"],
                 "%.0f" % r["fail_ms"] if r["fail_ms"] is not None else "MISSED",
                 "%.0f" % r["coll_ms"] if r["coll_ms"] is not None else "MISSED", r["exit"]),
              flush=True)

    def med(k):
        v = [r[k] for r in rows if r[k] is not None]
        return statistics.median(v) if v else float("nan")
    print("%s | %d pods | %.0f lines/s | CPU %.1f %% | %.0f us/line | %.1f MiB | "
          "failure %.0f ms | collateral %.0f ms | missed %d"
          % (a.format, a.pods, med("lines_per_s"), med("cpu_pct"), med("us_per_line"),
             med("hwm_mib"), med("fail_ms"), med("coll_ms"),
             sum(1 for r in rows if r["fail_ms"] is None or r["coll_ms"] is None)))


if __name__ == "__main__":
    main()
