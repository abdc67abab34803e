#!/bin/sh
# Logs that arrive on a pipe: standard input followed live by --watch
# and by the console (keys from the terminal, /dev/tty), and commands
# rankwatch runs itself (--cmd, braces expanded), one log each.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

line() {	# line RANK TEXT: a c10 line of that rank, with the time of now
	printf '[rank%s]:[I%s ProcessGroupNCCL.cpp:2012] %s\n' "$1" "$(date +'%m%d %H:%M:%S.000000')" "$2"
}
oom='torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.2 GiB is free.'

# 1. --watch -: the verdict changes while the pipe is still open, and the
# watch ends with the pipe, with a report's exit status.
mkfifo "$TMP/fifo"
"$RW" --watch - < "$TMP/fifo" > "$TMP/watch.out" 2> "$TMP/watch.err" &
wpid=$!
exec 7> "$TMP/fifo"
for r in 0 1 2 3; do line $r "ProcessGroupNCCL initialized" >&7; done
# (the first verdict may come after the first of these lines: a verdict
# follows whatever part of the pipe one read gave it)
i=0; while [ $i -lt 50 ] && ! grep -q '^healthy: .* 4 ranks' "$TMP/watch.out"; do sleep 0.1; i=$((i + 1)); done
check "--watch -: the verdict comes while the pipe is open" grep -q '^healthy: .* 4 ranks' "$TMP/watch.out"
line 2 "$oom" >&7
i=0; while [ $i -lt 50 ] && ! grep -q '^failure' "$TMP/watch.out"; do sleep 0.1; i=$((i + 1)); done
check "--watch -: a failure written to the pipe is reported before it closes" \
    grep -q '^failure: rank 2 failed first' "$TMP/watch.out"
check "--watch -: still running while the pipe is open" kill -0 $wpid
exec 7>&-
wait $wpid
check "--watch -: ends with the pipe, exit status 1 (a failure)" test $? = 1

# 2. --cmd: one source per command, braces expanded; a command that
# fails says so, with its status.
mkdir "$TMP/pods"
for r in 0 1 2; do line $r "ProcessGroupNCCL initialized" > "$TMP/pods/w$r.log"; done
line 1 "$oom" >> "$TMP/pods/w1.log"
"$RW" --report --format json --cmd "cat '$TMP/pods'/w{0..2}.log" --cmd 'echo no such pod >&2; exit 4' \
    > "$TMP/cmd.json" 2> "$TMP/cmd.err"
check "--cmd: exit status 1 (a failure)" test $? = 1
check "--cmd: three commands and a failing one read, rank 1 initiating" python3 - "$TMP/cmd.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["initiating"]["rank"] == 1, d["initiating"]
assert d["run"]["files"] == 4, d["run"]
assert d["initiating"]["event"]["file"].startswith("cat "), d["initiating"]["event"]
notes = d["notes"]
assert any("exited with status 4" in n for n in notes), notes
assert not any("status 0" in n for n in notes), notes
P
# a command naming one pod: its lines take the rank the pod's name gives
# (PyTorchJob: worker-N is rank N+1), though they name none themselves
mkdir "$TMP/job"
printf 'step 1 loss 2.1\n' > "$TMP/job/train-master-0"
printf 'step 1 loss 2.1\n%s\n' "$oom" > "$TMP/job/train-worker-4"
"$RW" --report --format json --cmd "cat '$TMP/job'/train-master-0" \
    --cmd "cat '$TMP/job'/train-worker-4" > "$TMP/pod.json"
check "--cmd naming a pod: its lines are that pod's rank" python3 - "$TMP/pod.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["initiating"]["rank"] == 5, d["initiating"]
assert d["initiating"]["event"]["rank_from"] == "pod", d["initiating"]["event"]
assert sorted(r["rank"] for r in d["ranks"]) == [0, 5], d["ranks"]
P
# a command that fails is no healthy log: alone, nothing is judged (exit
# 2); beside good ones, a healthy verdict says what it does not cover
"$RW" --report --cmd 'echo "error: pods \"x\" not found" >&2; exit 1' > "$TMP/fail.out" 2>&1
check "--cmd: a failing command alone is nothing to judge (exit 2)" test $? = 2
check "... it says the command's status" grep -q "exited with status 1" "$TMP/fail.out"
"$RW" --report --format json --cmd "cat '$TMP/pods/w0.log'" --cmd 'exit 3' > "$TMP/half.json"
check "--cmd: healthy beside a failed command is low confidence, and says so" python3 - "$TMP/half.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "healthy" and d["initiating"]["confidence"] == "low", d["initiating"]
assert "could not be read (exit 3)" in d["initiating"]["reason"], d["initiating"]["reason"]
P
"$RW" --watch --cmd 'sleep 0.3; echo "error: pods \"x\" not found"; exit 1' > "$TMP/failw.out" 2>&1
check "--watch --cmd: a command that fails ends the watch with nothing to judge (exit 2)" test $? = 2
"$RW" --report --cmd 'echo {1..5000}' > /dev/null 2> "$TMP/many.err"
check "--cmd: more than 4096 commands: exit 2" test $? = 2
check "--cmd: ... and says why" grep -q "more than 4096 commands" "$TMP/many.err"
"$RW" --watch --cmd "cat '$TMP/pods/w1.log'" > "$TMP/cmdw.out" 2>&1
check "--watch --cmd: ends when its commands have, exit 1" test $? = 1

# 3. The console on a pipe: keys from the terminal, the logs from the pipe,
# followed live; the log view reads the stream again from its spool, and
# the spool leaves nothing behind.
. "$top_srcdir/tests/tmux.sh"
mkdir "$TMP/spool"
mkfifo "$WORK/fifo"
START_ENV="TMPDIR=$TMP/spool" start p 100 30 "- < fifo"
exec 7> "$WORK/fifo"
for r in 0 1 2 3; do line $r "ProcessGroupNCCL initialized" >&7; done
check "console on a pipe: opens, following" wait_for p "following"
check "console on a pipe: healthy so far, 4 ranks" wait_for p "4 ranks"
line 3 "$oom" >&7
check "console on a pipe: the failure shows while the pipe is open" wait_for p " FAILURE "
check "console on a pipe: rank 3 first" wait_for p "rank 3 first"
keys p f Enter
check "console on a pipe: the log view shows the stream's lines" wait_for p "torch.OutOfMemoryError"
check "console on a pipe: the spool is unlinked (nothing in TMPDIR)" test -z "$(ls -A "$TMP/spool")"
keys p q
exec 7>&-
check "console on a pipe: the header says when the stream has ended" wait_for p "stream ended"
keys p q
check "console on a pipe: q quits (keys come from the terminal), status 0" wait_for p "EXIT=0"

# the terminal as standard input is no log
start q 80 24 "-"
check "console: - with the terminal as standard input is refused" wait_for q "EXIT=2"
check "... and says why" wait_for q "standard input, which is the terminal"
finish
