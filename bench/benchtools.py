#!/usr/bin/env python3
"""Helpers for bench/report-bench.sh (Python 3 standard library only).

  benchtools.py rg-patterns PCRE2_FILE RG_OUT RGP_OUT
      Turn `rankwatch --dump-patterns` output into pattern files for ripgrep:
        RGP_OUT  every pattern, for `rg -P` (PCRE2).  Only the capture-group
                 names change: rg joins all -f patterns into one regex, and
                 PCRE2 refuses the same name twice, so pattern i's group
                 (?<name>...) becomes (?<p<i>_name>...) (\\k<name> likewise).
        RG_OUT   the patterns ripgrep's default engine (Rust regex) accepts:
                 (?<name>...) written as (?P<name>...), which rg 13 needs, and
                 the patterns that use PCRE2-only syntax (look-around,
                 back-references, branch reset, atomic groups, possessive
                 quantifiers, \\K) left out.
      Prints "kept dropped" counts for RG_OUT, then one line per dropped pattern.

  benchtools.py fdmax STRACE_OUT RUN_DIR
      Replay an `strace -f -e trace=<fd syscalls>` log and print
      "<max fds open at once> <max files under RUN_DIR open at once>".

  benchtools.py iocount STRACE_OUT RUN_DIR
      Replay an `strace -f -e trace=<opens, reads, fd calls, mmap, stats>` log
      of one process (its threads share one descriptor table) and print
      "opens=N reads=N mmaps=N meta=N diropens=N threads=N": the open calls of paths
      under RUN_DIR (failed ones included; O_DIRECTORY ones, which opendir
      makes, apart in diropens), the read/pread64/readv/preadv(2) calls on
      descriptors opened there, the mmap calls of such descriptors, and the
      stat-family calls on such paths or descriptors, and how many threads
      made those opens and reads.  nfs-bench.sh compares
      them with what its LD_PRELOAD shim (delayfs.c) counted.

  benchtools.py split N CMD... -- FILE...
      Start N copies of CMD at once, copy k on every Nth FILE from the k-th,
      wait for all and print "<seconds until the last ended> <sum of their
      peak RSS, KiB>".  What N cores give a program that shares nothing:
      report-bench.sh runs it with -j1 next to the threaded run, in the same
      rounds, as the ceiling of the threads' speed-up on this machine.
"""

import os
import re
import subprocess
import sys
import time

PCRE_ONLY = re.compile(r"\(\?(?:=|!|<=|<!|\||>)|\\k[<{']|\\[1-9]|\\K|[*+?}]\+|\(\?P=|\(\?R|\(\?\d")
NAMED = re.compile(r"\(\?(?:P?<|')([A-Za-z_]\w*)[>']")


def rg_patterns(src, rg_out, rgp_out):
    with open(src) as f:
        pats = [l.rstrip("\n") for l in f if l.strip()]
    keep, dropped, full = [], [], []
    for i, p in enumerate(pats, 1):
        pre = "p%d_" % i
        uniq = NAMED.sub(lambda m: "(?<%s%s>" % (pre, m.group(1)), p)
        uniq = re.sub(r"\\k<([A-Za-z_]\w*)>", lambda m: "\\k<%s%s>" % (pre, m.group(1)), uniq)
        full.append(uniq)
        if PCRE_ONLY.search(p):
            dropped.append((i, p))
        else:
            keep.append(NAMED.sub(lambda m: "(?P<%s%s>" % (pre, m.group(1)), p))
    with open(rgp_out, "w") as f:
        f.write("\n".join(full) + "\n")
    with open(rg_out, "w") as f:
        f.write("\n".join(keep) + "\n")
    print(len(keep), len(dropped))
    for i, p in dropped:
        print("  #%d %s" % (i, p if len(p) < 110 else p[:107] + "..."))


LINE = re.compile(r"^(?:(\d+) +)?(?:<\.\.\. (\w+) resumed>(.*)|(\w+)\((.*))$")
RET = re.compile(r"\)\s+=\s+(-?\d+)")


def strace_calls(trace):
    """Each call of an `strace -f` log as (tid, call, rest, part): part is
    "whole", "start" (an <unfinished ...> call: rest has no result yet) or
    "resumed" (its <... resumed> end: rest is the whole call)."""
    pending = {}        # tid -> (call, args) of an <unfinished ...> call
    with open(trace, errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.rstrip("\n"))
            if not m:
                continue
            tid = m.group(1) or "0"
            if m.group(2):                      # <... call resumed> rest
                call, args = pending.pop(tid, (m.group(2), ""))
                yield tid, call, args + m.group(3), "resumed"
                continue
            call, rest = m.group(4), m.group(5)
            if rest.endswith("<unfinished ...>"):
                rest = rest[: -len("<unfinished ...>")]
                pending[tid] = (call, rest)
                yield tid, call, rest, "start"
                continue
            yield tid, call, rest, "whole"


def fdmax(trace, rundir):
    rundir = os.path.realpath(rundir)
    fds = {}            # pid -> {fd: is_run_file}
    best_all = best_run = 0

    def table(pid):
        if pid not in fds:
            fds[pid] = {0: False, 1: False, 2: False}
        return fds[pid]

    for pid, call, rest, part in strace_calls(trace):
        if part == "start":
            continue
        r = RET.search(rest)
        if not r:
            continue
        ret = int(r.group(1))
        t = table(pid)
        if call in ("close",):
            fd = int(rest.split(",", 1)[0].split(")", 1)[0])
            if ret == 0:
                t.pop(fd, None)
            continue
        if call == "close_range":
            lo, hi = [int(x, 0) for x in rest.split(",")[:2]]
            for fd in [k for k in t if lo <= k <= hi]:
                del t[fd]
            continue
        if ret < 0:
            continue
        if call in ("pipe", "pipe2", "socketpair"):
            for fd in re.findall(r"\d+", rest.split("]", 1)[0]):
                t[int(fd)] = False
        elif call == "fcntl" and "F_DUPFD" not in rest:
            continue
        else:
            is_run = False
            if call in ("open", "openat", "openat2", "creat"):
                pm = re.search(r'"((?:[^"\\]|\\.)*)"', rest)
                if pm:
                    path = pm.group(1)
                    if not path.startswith("/"):
                        path = os.path.join(os.getcwd(), path)
                    is_run = os.path.realpath(path).startswith(rundir + os.sep)
            t[ret] = is_run
        best_all = max(best_all, sum(len(v) for v in fds.values()))
        best_run = max(best_run, sum(sum(v.values()) for v in fds.values()))
    print(best_all, best_run)


IO_READS = ("read", "pread64", "readv", "preadv", "preadv2")
IO_META = ("stat", "lstat", "newfstatat", "fstatat64", "statx", "fstat")


def iocount(trace, rundir):
    rundir = os.path.realpath(rundir)
    run = set()         # descriptors open on a file under rundir (one table: threads share it)
    n = {"opens": 0, "reads": 0, "mmaps": 0, "meta": 0, "diropens": 0}
    tids = set()        # the threads that opened or read the run's files

    def under(rest):
        pm = re.search(r'"((?:[^"\\]|\\.)*)"', rest)
        if not pm:
            return False
        path = pm.group(1)
        if not path.startswith("/"):
            path = os.path.join(os.getcwd(), path)
        path = os.path.normpath(path)
        return path == rundir or path.startswith(rundir + os.sep)

    def first_int(rest):
        m = re.match(r"\s*(-?\d+|AT_FDCWD)", rest)
        return None if not m or m.group(1) == "AT_FDCWD" else int(m.group(1))

    for tid, call, rest, part in strace_calls(trace):
        if call == "close" and part != "whole":
            # the number is free from the call's start: another
            # thread's open may get it before this close returns
            if part == "start":
                run.discard(first_int(rest))
            continue
        if part == "start":
            continue
        r = RET.search(rest)
        if not r:
            continue
        ret = int(r.group(1))
        if call in ("open", "openat", "openat2", "creat"):
            u = under(rest) or (call != "open" and first_int(rest) in run and '"/' not in rest)
            if u:
                n["diropens" if "O_DIRECTORY" in rest else "opens"] += 1
                tids.add(tid)
            if ret >= 0:
                (run.add if u else run.discard)(ret)
        elif call == "close":
            run.discard(first_int(rest))
        elif call == "close_range":
            lo, hi = [int(x, 0) for x in rest.split(",")[:2]]
            run.difference_update([fd for fd in run if lo <= fd <= hi])
        elif call in ("dup", "dup2", "dup3") or (call == "fcntl" and "F_DUPFD" in rest):
            if ret >= 0:
                (run.add if first_int(rest) in run else run.discard)(ret)
        elif call in IO_READS:
            if first_int(rest) in run:
                n["reads"] += 1
                tids.add(tid)
        elif call == "mmap":
            fd = rest.split(",")
            if len(fd) > 4 and first_int(fd[4]) in run:
                n["mmaps"] += 1
        elif call in IO_META:
            fd = first_int(rest)
            if (fd is not None and fd in run and (call == "fstat" or '""' in rest)) or under(rest):
                n["meta"] += 1
    n["threads"] = len(tids)
    print(" ".join("%s=%d" % kv for kv in n.items()))


def split(n, cmd, files):
    t0 = time.monotonic()
    kids = [subprocess.Popen(cmd + files[k::n], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for k in range(n)]
    rss = 0
    for kid in kids:
        _, status, ru = os.wait4(kid.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):  # rankwatch: 1 = a failure found; rg: 1 = no match
            sys.exit("split: %s exited with %d" % (" ".join(cmd), code))
        kid.returncode = code
        rss += ru.ru_maxrss
    print("%.3f %d" % (time.monotonic() - t0, rss))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "rg-patterns":
        rg_patterns(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "fdmax":
        fdmax(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "iocount":
        iocount(*sys.argv[2:])
    elif len(sys.argv) > 4 and sys.argv[1] == "split" and "--" in sys.argv[3:]:
        at = sys.argv.index("--", 3)
        split(int(sys.argv[2]), sys.argv[3:at], sys.argv[at + 1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
