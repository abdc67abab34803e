#!/usr/bin/env python3
"""Latency of rankwatch --watch --format jsonl, next to tail -F, on the same files.

A writer appends a line that matches a signature (a CUDA OOM whose "Tried to
allocate N GiB" carries the line's id) to one of N rank files; the time from
the write to the moment the matching JSON event (or tail's line) arrives on
the reader's pipe is the latency. Prints median and p99 for rankwatch with
inotify, rankwatch polling (--poll), and tail -F, for N = 8 and 1,024, then
rankwatch's CPU use while idle-watching 1,024 files.

Usage: bench/watch-latency.py [--rankwatch ./rankwatch] [--events 200]
"""
import argparse
import json
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def make_run(d, n):
    for r in range(n):
        with open(os.path.join(d, "rank%d.log" % r), "w") as f:
            f.write("[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1\n")


def measure(cmd, d, n, events, parse, settle=1.0, gap=0.02, env=None):
    """Run cmd, append `events` lines, return latencies in ms."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         bufsize=0, env=env)
    time.sleep(settle)
    pending = {}
    lat = []
    buf = b""
    rng = random.Random(7)
    deadline_after = 5.0
    sent = 0
    next_send = time.monotonic()
    last_send = None
    while True:
        now = time.monotonic()
        if sent < events and now >= next_send:
            ident = 100000 + sent
            r = rng.randrange(n)
            with open(os.path.join(d, "rank%d.log" % r), "a") as f:
                f.write("[rank%d]: torch.OutOfMemoryError: CUDA out of memory. "
                        "Tried to allocate %d.00 GiB\n" % (r, ident))
            pending[ident] = time.monotonic()
            sent += 1
            last_send = time.monotonic()
            next_send = last_send + gap
        if sent >= events and (not pending or time.monotonic() - last_send > deadline_after):
            break
        timeout = max(0.0, next_send - time.monotonic()) if sent < events else 0.2
        ready, _, _ = select.select([p.stdout], [], [], timeout)
        if ready:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            t = time.monotonic()
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                ident = parse(line)
                if ident in pending:
                    lat.append((t - pending.pop(ident)) * 1000)
    p.terminate()
    p.wait()
    return lat, len(pending)


def parse_rankwatch(line):
    try:
        o = json.loads(line)
    except ValueError:
        return None
    if o.get("type") != "event":
        return None
    req = o["event"]["facts"].get("requested", "")
    try:
        return int(float(req.split()[0]))
    except (ValueError, IndexError):
        return None


def parse_tail(line):
    i = line.find(b"allocate ")
    if i < 0:
        return None
    try:
        return int(line[i + 9:].split(b".")[0])
    except ValueError:
        return None


def cpu_idle(rw, d, seconds=10, extra=()):
    p = subprocess.Popen([rw, "--watch", "--format", "jsonl"] + list(extra) + [d],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)   # the first read of every file

    def ticks():
        with open("/proc/%d/stat" % p.pid) as f:
            v = f.read().split(")")[-1].split()
        return int(v[11]) + int(v[12])
    a, t0 = ticks(), time.monotonic()
    time.sleep(seconds)
    b, t1 = ticks(), time.monotonic()
    p.terminate()
    p.wait()
    hz = os.sysconf("SC_CLK_TCK")
    return 100.0 * (b - a) / hz / (t1 - t0)


def row(name, lat, lost):
    if not lat:
        print("  %-34s no events arrived (%d lost)" % (name, lost))
        return
    lat.sort()
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print("  %-34s median %8.2f ms   p99 %8.2f ms   max %8.2f ms   (%d events, %d lost)"
          % (name, statistics.median(lat), p99, lat[-1], len(lat), lost))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rankwatch", default=os.path.join(os.path.dirname(__file__), "..", "rankwatch"))
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--poll", type=int, default=250)
    a = ap.parse_args()
    rw = os.path.abspath(a.rankwatch)
    print("== machine: %d cores, %s" % (os.cpu_count(), subprocess.run(
        [rw, "--version"], capture_output=True, text=True).stdout.strip()))
    for n in (8, 1024):
        d = tempfile.mkdtemp(prefix="rw-lat-")
        try:
            make_run(d, n)
            files = [os.path.join(d, "rank%d.log" % r) for r in range(n)]
            print("== %d rank files, %d events, one every %d ms" % (n, a.events, 20))
            row("rankwatch --watch (inotify)", *measure(
                [rw, "--watch", "--format", "jsonl", d], d, n, a.events, parse_rankwatch))
            make_run(d, n)
            row("rankwatch --watch --poll=%d" % a.poll, *measure(
                [rw, "--watch", "--format", "jsonl", "--poll=%d" % a.poll, d], d, n,
                a.events // 2, parse_rankwatch, gap=0.05))
            make_run(d, n)
            # as on NFS: inotify hears nothing, only the timer finds writes
            row("  polling only (target < %d ms)" % (a.poll + 20), *measure(
                [rw, "--watch", "--format", "jsonl", "--poll=%d" % a.poll, d], d, n,
                a.events // 4, parse_rankwatch, gap=0.137,
                env=dict(os.environ, RANKWATCH_NO_INOTIFY="1")))
            make_run(d, n)
            row("tail -F", *measure(["tail", "-q", "-n", "0", "-F"] + files, d, n,
                                    a.events, parse_tail))
        finally:
            shutil.rmtree(d)
    d = tempfile.mkdtemp(prefix="rw-idle-")
    try:
        make_run(d, 1024)
        print("== idle: rankwatch --watch on 1,024 files, 10 s without writes: %.2f%% of a core"
              % cpu_idle(rw, d))
        print("== idle, polling every 1000 ms (as on NFS): %.2f%% of a core"
              % cpu_idle(rw, d, extra=("--poll=1000",)))
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    sys.exit(main())
