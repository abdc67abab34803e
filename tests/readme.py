#!/usr/bin/env python3
"""The README says what the program does: every example in it is run.

  readme.py README RANKWATCH TMPDIR [--update]

Examples are fenced code blocks whose lines start with "$ rankwatch"
(the commands) followed by what they print, and blocks after a line
"<!-- console: COLSxROWS ARGS -->", which are the console's first screen
lines as tmux shows them. A line of the block ending in "..." stands for
any line starting with what comes before; a last line "..." for any
further lines. --watch examples run until they have printed as many lines
as the block shows (then SIGTERM). Also checked: every option of --help
is in the Usage table, and every key of the JSON report (on every sample)
is named in "The JSON report".

--update writes the real output into README instead (same number of
lines, the same lines cut with "...").

Prints "ok - ..." / "not ok - ..." lines; exits 1 if any is not ok.
"""
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time

readme, rw, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
update = "--update" in sys.argv[4:]
top = os.path.dirname(os.path.abspath(readme))
work = os.path.join(tmp, "readme-work")
os.makedirs(work, exist_ok=True)
if not os.path.exists(os.path.join(work, "samples")):
    os.symlink(os.path.join(top, "samples"), os.path.join(work, "samples"))
bindir = os.path.join(tmp, "readme-bin")
os.makedirs(bindir, exist_ok=True)
if not os.path.exists(os.path.join(bindir, "rankwatch")):
    os.symlink(os.path.abspath(rw), os.path.join(bindir, "rankwatch"))
env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""),
           TZ="UTC", LANG="C.UTF-8", HOME=os.path.join(tmp, "readme-home"),
           XDG_CONFIG_HOME=os.path.join(tmp, "readme-config"),
           XDG_DATA_HOME=os.path.join(tmp, "readme-data"),
           XDG_STATE_HOME=os.path.join(tmp, "readme-state"))
os.makedirs(env["HOME"], exist_ok=True)
fails = 0


def report(good, what, detail=""):
    global fails
    print(("ok - " if good else "not ok - ") + what)
    if not good:
        fails += 1
        if detail:
            print("\n".join("  | " + l for l in detail.splitlines()))


def fits(want, got):
    """Does the output got (lines) fit the block's lines want?"""
    more = bool(want) and want[-1] == "..."
    w = want[:-1] if more else want
    if len(got) < len(w) or (not more and len(got) != len(w)):
        return False
    for a, b in zip(w, got):
        if a.endswith("...") and a != b:
            if not b.startswith(a[:-3]):
                return False
        elif a != b:
            return False
    return True


def cut_like(want, got):
    """got, shaped like want: lines cut where want cuts them, and a last
    "..." kept (the lines it stands for dropped)."""
    more = bool(want) and want[-1] == "..."
    w = want[:-1] if more else want
    out = []
    for i, b in enumerate(got[:len(w)] if more else got):
        a = w[i] if i < len(w) else ""
        if a.endswith("...") and len(b) > len(a) - 3:
            b = b[:len(a) - 3] + "..."
        out.append(b)
    return out + (["..."] if more else [])


def run_command(cmd, nlines):
    """What cmd prints (stdout then stderr), in the test's folder."""
    args = shlex.split(cmd)
    if "--watch" in args:
        p = subprocess.Popen(cmd, shell=True, cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)
        data, end = b"", time.time() + 20
        while time.time() < end and data.count(b"\n") < nlines:
            r, _, _ = select.select([p.stdout], [], [], 0.1)
            if r:
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    break
                data += chunk
        os.killpg(p.pid, signal.SIGTERM)
        p.wait()
        return data.decode("utf-8", "replace").split("\n")[:nlines]
    p = subprocess.run(cmd, shell=True, cwd=work, env=env, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.stdout.split("\n")[:-1] if p.stdout.endswith("\n") else p.stdout.split("\n")


def console_screen(size, args):
    cols, rows = size.split("x")
    sock = os.path.join(tmp, "readme-tmux.sock")
    t = ["tmux", "-S", sock]
    subprocess.run(t + ["-f", "/dev/null", "new-session", "-d", "-s", "readme",
                        "-x", cols, "-y", rows,
                        "cd %s && env TERM=xterm-256color %s %s; sleep 60"
                        % (shlex.quote(work), shlex.quote(os.path.abspath(rw)), args)],
                   env=env, check=True)
    try:
        last, screen, end = None, "", time.time() + 20
        while time.time() < end:
            time.sleep(0.3)
            screen = subprocess.run(t + ["capture-pane", "-t", "readme", "-p"], env=env,
                                    text=True, stdout=subprocess.PIPE).stdout
            if "following" in screen and screen == last:
                break
            last = screen
        return [l.rstrip() for l in screen.split("\n")]
    finally:
        subprocess.run(t + ["kill-server"], env=env, stderr=subprocess.DEVNULL)


text = open(readme).read().split("\n")
out = list(text)
i = 0
examples = 0
delta = 0	# lines --update added to out so far
while i < len(text):
    m = re.match(r"<!-- console: (\d+x\d+) (.*) -->$", text[i])
    if m and i + 1 < len(text) and text[i + 1].startswith("```"):
        j = i + 2
        while not text[j].startswith("```"):
            j += 1
        want = text[i + 2:j]
        # the block is the top of the screen: as many lines as it shows
        got = console_screen(m.group(1), m.group(2))
        w = want[:-1] if want[-1:] == ["..."] else want
        if update:
            new = cut_like(w, got[:len(w)]) + want[len(w):]
            out[i + 2 + delta:j + delta] = new
            delta += len(new) - (j - i - 2)
        else:
            report(fits(w, got[:len(w)]),
                   "README console %s %s: the screen as shown" % (m.group(1), m.group(2)),
                   "\n".join(got))
        examples += 1
        i = j + 1
        continue
    if text[i].startswith("```") and i + 1 < len(text) and text[i + 1].startswith("$ rankwatch"):
        j = i + 1
        while not text[j].startswith("```"):
            j += 1
        k = i + 1
        while k < j:
            cmd = text[k][2:]
            e = k + 1
            while e < j and not text[e].startswith("$ rankwatch"):
                e += 1
            want = text[k + 1:e]
            got = run_command(cmd, len([w for w in want if w != "..."]))
            if update:
                new = cut_like(want, got)
                out[k + 1 + delta:e + delta] = new
                delta += len(new) - (e - k - 1)
            else:
                report(fits(want, got), "README example: $ " + cmd,
                       "README:\n" + "\n".join(want) + "\nthe program:\n" + "\n".join(got))
            examples += 1
            k = e
        i = j + 1
        continue
    i += 1

if update:
    open(readme, "w").write("\n".join(out))
    print("updated %s (%d examples)" % (readme, examples))
    sys.exit(0)
report(examples >= 4, "README has its examples (%d found)" % examples)

# Every option of --help in the Usage table.
helptext = subprocess.run([rw, "--help"], text=True, stdout=subprocess.PIPE).stdout
opts = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", helptext)))
joined = "\n".join(text)
usage = joined[joined.index("## Usage"):]
usage = usage[:usage.index("\n## ", 3)] if "\n## " in usage[3:] else usage
missing = [o for o in opts if "`" + o not in usage]
report(not missing, "every option of --help is in README's Usage (%d)" % len(opts),
       "missing: " + " ".join(missing))

# Every key of the JSON report in "The JSON report", by its path
# (diagnoses[].ranks; an event's keys as event.KEY wherever it is).
paths = set()


def walk(v, p):
    if isinstance(v, dict):
        if "signature" in v and "file" in v:
            p = "event"
        for k, x in v.items():
            q = (p + "." if p else "") + k
            paths.add(q)
            if k != "facts":	# a fact's name is its rule's, not the report's
                walk(x, q)
    elif isinstance(v, list):
        for x in v:
            walk(x, p + "[]")


for name in sorted(os.listdir(os.path.join(top, "samples"))):
    d = os.path.join(top, "samples", name)
    if os.path.isdir(d):
        p = subprocess.run([rw, "--report", "--format", "json", d], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        walk(json.loads(p.stdout), "")
sec = joined[joined.index("### The JSON report"):]
sec = sec[:sec.index("\n## ")]
named = set(re.findall(r"`([a-z_.\[\]]+)`", sec))
missing = sorted(k for k in paths if k not in named)
report(not missing, "every key of the JSON report is in README's JSON section (%d paths)" % len(paths),
       "missing: " + " ".join(missing))

# The samples section names every sample.
samples = sorted(n for n in os.listdir(os.path.join(top, "samples"))
                 if os.path.isdir(os.path.join(top, "samples", n)))
sec = joined[joined.index("## Samples"):]
sec = sec[:sec.index("\n## ", 3)]
missing = [s for s in samples if "`" + s + "`" not in sec]
report(not missing, "README's Samples names every sample (%d)" % len(samples),
       "missing: " + " ".join(missing))
sys.exit(1 if fails else 0)
