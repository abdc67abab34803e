#!/bin/sh
# Fault injection: the real binary against what a crashing job, a busy
# filesystem, a hostile log line and an impatient user do to it. Each case:
# no crash, no hang, a clear message naming the file, nothing lost, the
# rest analysed.
#
# The faults issue 10 reported are tested where their behaviour lives:
# bad-input.sh (a NUL-filled tail, a FIFO, /dev/zero, unreadable, missing,
# empty and binary files, symlink loops, a report written to /dev/full,
# catastrophic regexes and their count, 10,000 files) and watch.sh
# (rotation without duplicates, truncation, a folder made again, following
# nothing readable). This script adds the heavier ones:
#   1. /dev/zero as a PATH, beside a real run
#   2. following: a file replaced by a symlink to /dev/zero, another by a
#      FIFO; truncation and rotation while a writer keeps appending
#   3. a 2 GB sparse file: all hole, and log + hole + the failure after it
#   4. 20,000 files in one folder
#   5. 10 million one-byte lines
#   6. OSC 52 / title / CSI 2J / C1 sequences in a line the console shows
#   7. a full state filesystem when a checklist step is ticked
#   8. 2,000 rule files
#   9. SIGPIPE: --report | head -1, --watch | head -1
#  10. SIGINT and SIGTERM during a 1 GB report
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/tmux.sh"

# wait_file FILE TEXT: up to 20 s for TEXT to appear in FILE
wait_file() {
	i=0
	while [ $i -lt 200 ]; do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1; i=$((i + 1))
	done
	echo "  $1 while waiting for '$2':"; sed 's/^/  | /' "$1" | tail -20
	return 1
}
stamp() { echo "[2024-03-02 10:$1,000] [INFO] [train.py:12:step] $2"; }
oom="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."

# 7. A full state filesystem: ticking a checklist step says why it could
#    not be saved, and the earlier state is left as it was. A small tmpfs
#    needs root, or a user namespace where the kernel allows one.
fullfs() {	# fullfs MOUNTPOINT: a 256 KiB tmpfs there, or fail
	mount -t tmpfs -o size=256k rankwatch-test "$1" 2>/dev/null
}
case7() {
	st="$TMP/7state"
	mkdir -p "$st"
	fullfs "$st" || return 2
	START_ENV="XDG_STATE_HOME=$st"
	start t 100 30 "'$top_srcdir/samples/silent-rank-hang'"
	wait_for t "following" >/dev/null
	keys t Tab Enter ] Space
	check "7: a step ticked while there is room" wait_for t "[x] 1."
	keys t q q
	wait_for t "EXIT=0" >/dev/null
	state=$(find "$st" -type f | head -1)
	check "7: ... is saved" [ -n "$state" ]
	cp "$state" "$TMP/7before"
	dd if=/dev/zero of="$st/fill" bs=4096 2>/dev/null	# until ENOSPC
	start t 100 30 "'$top_srcdir/samples/silent-rank-hang'"
	wait_for t "following" >/dev/null
	keys t Tab Enter ] Space	# untick: the state changes, and cannot be saved
	check "7: on a full filesystem the reason is shown" wait_for t "No space left on device"
	keys t q q
	check "7: ... and it quits, status 0" wait_for t "EXIT=0"
	check "7: the earlier state is intact" cmp "$state" "$TMP/7before"
	check "7: no half-written file is left" [ "$(find "$st" -name '*.tmp.*' | wc -l)" -eq 0 ]
	umount "$st"
	START_ENV=
	return 0
}
# Run as root of a namespace of its own (below): only this case.
if [ "${RW_FAULTS_NS:-}" = 1 ]; then
	case7
	finish
	exit $?
fi


# 1. /dev/zero named as a log, beside a real run: refused by name, quickly;
#    the run is still analysed.
timeout 20 "$RW" --report /dev/zero > "$TMP/1.out" 2> "$TMP/1.err"; rc=$?
check "1: /dev/zero alone: exit 2, not a hang" [ "$rc" -eq 2 ]
check "1: ... named: not a regular file" grep -q '/dev/zero: .*not a regular file' "$TMP/1.err"
timeout 20 "$RW" --report /dev/zero "$top_srcdir/samples/oom-collateral" > "$TMP/1.out" 2> "$TMP/1.err"; rc=$?
check "1: /dev/zero beside a sample: the sample's failure is found (exit 1)" [ "$rc" -eq 1 ]
check "1: ... and /dev/zero is named" grep -q '/dev/zero' "$TMP/1.out" "$TMP/1.err"

# 2. Following while the files are replaced under it.
run="$TMP/2"
mkdir -p "$run"
for r in 0 1 2 3; do stamp "00:00" "step 1 rank $r" > "$run/rank$r.log"; done
"$RW" --watch --format jsonl "$run" > "$TMP/2.out" 2> "$TMP/2.err" &
wpid=$!
wait_file "$TMP/2.out" '"verdict"' >/dev/null
rm "$run/rank1.log"; ln -s /dev/zero "$run/rank1.log"
rm "$run/rank2.log"; mkfifo "$run/rank2.log"
check "2: a log replaced by a symlink to /dev/zero is named, not read" \
    wait_file "$TMP/2.err" 'rank1.log: error: not a regular file'
check "2: a log replaced by a FIFO is named, not opened for good" \
    wait_file "$TMP/2.err" 'rank2.log: error: not a regular file'
# a writer appending all the while, truncated under it, then rotated
( i=0; while [ $i -lt 20000 ]; do stamp "01:00" "step $i"; i=$((i + 1)); done ) >> "$run/rank0.log" &
apid=$!
sleep 0.2
: > "$run/rank0.log"
check "2: truncation under a writer is noticed" wait_file "$TMP/2.err" 'rank0.log: truncated'
wait $apid
mv "$run/rank0.log" "$run/rank0.log.1"
{ stamp "02:00" "step 3001"; echo "[rank0]: $oom"; } > "$run/rank0.log"
check "2: rotation under a writer is noticed" wait_file "$TMP/2.err" 'rank0.log: replaced by a new file'
check "2: ... and the OOM after it is read" wait_file "$TMP/2.out" '"entry": "cuda-oom"'
echo "[2024-03-02 10:03:00,000] [rank3]: $oom" >> "$run/rank3.log"
check "2: the other files are still followed" wait_file "$TMP/2.out" '"rank": 3,'
sleep 0.5
check "2: the OOM of rank 0 is one event, not one per re-read" \
    [ "$(grep '"type": "event"' "$TMP/2.out" | grep '"entry": "cuda-oom"' | grep -c '"rank": 0,')" -eq 1 ]
check "2: rank 0 failed first" sh -c 'tail -1 "$1" | grep -q "\"initiating\": 0"' _ "$TMP/2.out"
check "2: still running" kill -0 $wpid
kill -TERM $wpid; wait $wpid; rc=$?
check "2: SIGTERM ends it, status 0" [ "$rc" -eq 0 ]
rm -f "$run/rank2.log"

# 3. A 2 GB sparse file: all hole (skipped as binary, at once); and a log
#    with a 2 GB hole in the middle, its failure after the hole.
run="$TMP/3"
mkdir -p "$run/hole" "$run/middle"
truncate -s 2G "$run/hole/rank0.log"
stamp "00:00" "step 1" > "$run/hole/rank1.log"
timeout 60 "$RW" --report "$run/hole" > "$TMP/3.out" 2> "$TMP/3.err"; rc=$?
check "3: a 2 GB hole: no hang, a report (exit 0)" [ "$rc" -eq 0 ]
check "3: ... the hole is named as binary" grep -q 'rank0.log: warning: binary data' "$TMP/3.out"
{ i=0; while [ $i -lt 100 ]; do stamp "00:$((i % 50 + 10))" "step $i"; i=$((i + 1)); done; } > "$run/middle/rank0.log"
truncate -s +2G "$run/middle/rank0.log"
echo "[2024-03-02 10:05:00,000] [rank0]: $oom" >> "$run/middle/rank0.log"
stamp "00:00" "step 1" > "$run/middle/rank1.log"
timeout 300 "$RW" --report --format json "$run/middle" > "$TMP/3.json" 2> "$TMP/3.err"; rc=$?
check "3: text, a 2 GB hole, then an OOM: the OOM is found (exit 1)" [ "$rc" -eq 1 ]
check "3: ... on rank 0" grep -q '"initiating": {"rank": 0' "$TMP/3.json"
check "3: ... the NULs are noted" grep -q 'rank0.log: contains NUL bytes' "$TMP/3.json"
check "3: ... read after the hole, on the hole's line, 101" grep -q '"line": 101' "$TMP/3.json"
rm -rf "$run"

# 4. 20,000 files in one folder, the failure in the last one.
run="$TMP/4"
mkdir -p "$run"
python3 - "$run" "$oom" <<'PY'
import sys
d, oom = sys.argv[1], sys.argv[2]
for r in range(20000):
    with open("%s/rank%d.log" % (d, r), "w") as f:
        f.write("[2024-03-02 10:00:00,000] [INFO] [train.py:12:step] step 1\n")
        if r == 19999:
            f.write("[2024-03-02 10:00:05,000] [rank19999]: %s\n" % oom)
PY
timeout 120 "$RW" --report --format json "$run" > "$TMP/4.json" 2> "$TMP/4.err"; rc=$?
check "4: 20,000 files: a report (exit 1)" [ "$rc" -eq 1 ]
check "4: ... rank 19,999 found first" grep -q '"initiating": {"rank": 19999' "$TMP/4.json"
check "4: ... every file read" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["run"]["files"] == 20000 and d["run"]["ranks"] == 20000 else 1)' "$TMP/4.json"
rm -rf "$run"

# 5. 10 million one-byte lines, then the failure.
run="$TMP/5"
mkdir -p "$run"
{ stamp "00:00" "step 1"; yes a | head -n 10000000; echo "[2024-03-02 10:05:00,000] [rank0]: $oom"; } > "$run/rank0.log"
stamp "00:00" "step 1" > "$run/rank1.log"
timeout 120 "$RW" --report --format json "$run" > "$TMP/5.json" 2> "$TMP/5.err"; rc=$?
check "5: 10M one-byte lines: the OOM after them is found (exit 1)" [ "$rc" -eq 1 ]
check "5: ... at its line, 10,000,002" grep -q '"line": 10000002' "$TMP/5.json"
# the console's log view holds 2M lines: opened at the failure, it holds
# the lines around it, lands on it, and says what it holds
WAIT_TRIES=300	# 60 s: a sanitizer build reads 10M lines slowly
start l 120 30 "'$run'"
wait_for l "following" >/dev/null
keys l f Enter
check "5: console: f Enter lands on the OOM, past 2M lines" wait_for l "rank0.log:10000002"
check "5: ... and says what the view holds" wait_for l "of 10000002 lines (at most 2000000): rank0.log lines "
check "5: ... in its title too" wait_for l "of 10000002 lines (the view holds 2000000)"
WAIT_TRIES=50
keys l q q
rm -rf "$run"

# 6. Terminal escapes in a log line shown in the console: OSC 52 (set the
#    clipboard), OSC 2 (set the title), CSI 2J (clear), C1 CSI (0x9b). The
#    pane's title stays, tmux gets no paste buffer, the screen is not
#    cleared, and the bytes are shown as ^[ and \x9b.
run="$TMP/6"
mkdir -p "$run"
stamp "00:00" "step 1" > "$run/rank1.log"
{
	stamp "00:00" "step 1"
	printf '[rank0]: \033]52;c;cHduZWQ=\007 \033]2;PWNED\007 \033[2J \302\2332J %s\n' "$oom"
} > "$run/rank0.log"
T set-option -g set-clipboard on 2>/dev/null
start e 200 40 "'$run'"
wait_for e "following" >/dev/null
title0=$(T display -p -t e '#{pane_title}')
keys e f Enter
check "6: the log view opens at the line" wait_for e "CUDA out of memory"
check "6: OSC 52 shown, not obeyed" wait_for e '^[]52;c;cHduZWQ=^G'
check "6: OSC 2 shown, not obeyed" wait_for e '^[]2;PWNED^G'
check "6: CSI 2J and C1 CSI shown" wait_for e '^[[2J \xc2\x9b2J torch'
check "6: the pane title is unchanged" [ "$(T display -p -t e '#{pane_title}')" = "$title0" ]
check "6: no tmux paste buffer was set" [ -z "$(T list-buffers 2>/dev/null)" ]
check "6: the screen was not cleared (the header still drawn)" sh -c 'tmux -S "$1" capture-pane -t e -p | head -1 | grep -q "rank 0"' _ "$SOCK"
keys e q q
check "6: q quits, status 0" wait_for e "EXIT=0"

# 7. (above) a full state filesystem
if [ "$(id -u)" = 0 ]; then
	case7 || not_ok "7: cannot mount a tmpfs as root"
elif command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then
	# the same case as root of a user and mount namespace of our own
	RW_FAULTS_NS=1 unshare -rm sh "$0" > "$TMP/7.out" 2>&1
	grep -v " passed, " "$TMP/7.out"
	passes=$((passes + $(grep -c '^ok ' "$TMP/7.out")))
	fails=$((fails + $(grep -c '^not ok ' "$TMP/7.out")))
	grep -q '^ok - 7: the earlier state is intact' "$TMP/7.out" || not_ok "7: did not run in a namespace"
else
	echo "skip - 7: no root and no user namespaces here: the full-filesystem case did not run"
fi

# 8. 2,000 rule files: all checked, all used.
rules="$TMP/8"
mkdir -p "$rules"
python3 - "$rules" <<'PY'
import sys
d = sys.argv[1]
for i in range(2000):
    open("%s/many-%04d.yaml" % (d, i), "w").write("""id: many-%04d
title: Generated entry %d
category: process
severity: low
summary: One of many.
symptoms:
  - symptom: marker %d seen
    why: the test wrote it
    signal: mark
fix:
  steps: [nothing]
  verify: nothing
signatures:
  - id: mark
    role: initiating
    pattern: 'zq-marker-%04d-(?<step>\\d+)'
    examples: ['zq-marker-%04d-1', 'x zq-marker-%04d-22']
    counterexamples: ['zq-marker-%04d-x']
""" % (i, i, i, i, i, i, i))
PY
timeout 120 "$RW" --check-rules --rules "$rules" > "$TMP/8.out" 2>&1; rc=$?
check "8: --check-rules on 2,000 files: all valid" [ "$rc" -eq 0 ]
check "8: ... all counted" grep -q "^20[0-9][0-9] entries" "$TMP/8.out"
mkdir -p "$TMP/8run"
stamp "00:00" "step 1" > "$TMP/8run/rank0.log"
echo "[2024-03-02 10:00:01,000] [rank1] zq-marker-1999-7" > "$TMP/8run/rank1.log"
timeout 120 "$RW" --report --format json --rules "$rules" "$TMP/8run" > "$TMP/8.json" 2> "$TMP/8.err"; rc=$?
check "8: a report with them: the last entry matches (exit 1)" [ "$rc" -eq 1 ]
check "8: ... as the first diagnosis" grep -q '"entry": "many-1999"' "$TMP/8.json"

# 9. A reader that goes away: quiet, prompt, no error message.
"$RW" --report "$top_srcdir/samples/oom-collateral" 2> "$TMP/9.err" | head -1 > /dev/null
check "9: --report | head -1: nothing on stderr" [ ! -s "$TMP/9.err" ]
mkdir -p "$TMP/9run"
stamp "00:00" "step 1" > "$TMP/9run/rank0.log"
t0=$(date +%s)
( timeout 20 "$RW" --watch --format jsonl "$TMP/9run" 2> "$TMP/9w.err"; echo "rc=$?" > "$TMP/9w.rc" ) | head -1 > /dev/null
sleep 1	# until the subshell wrote its status
t1=$(date +%s)
check "9: --watch | head -1: ends when its reader does, quietly (exit 0)" \
    sh -c 'grep -q "rc=0" "$1" && [ ! -s "$2" ]' _ "$TMP/9w.rc" "$TMP/9w.err"
check "9: ... at once, before anything more is written" [ $((t1 - t0)) -le 4 ]

# 10. SIGINT and SIGTERM during a 1 GB report: it stops at once, says where
#     it was, prints no half-made report, and exits 128 + the signal.
run="$TMP/10"
mkdir -p "$run"
python3 - "$run" <<'PY'
import sys
d = sys.argv[1]
blk = "".join("[2024-03-02 10:00:%02d,000] [INFO] [train.py:12:step] step %d loss 1.234 lr 1e-4 tokens 524288\n"
              % (i % 60, i) for i in range(4000)).encode()
for r in range(8):
    with open("%s/rank%d.log" % (d, r), "wb") as f:
        for _ in range((128 << 20) // len(blk)):
            f.write(blk)
PY
for sig in INT TERM; do
	"$RW" --report "$run" > "$TMP/10.out" 2> "$TMP/10.err" &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	t0=$(date +%s)
	wait $pid; rc=$?
	t1=$(date +%s)
	want=130; [ $sig = TERM ] && want=143
	check "10: SIG$sig during a 1 GB report: exit $want" [ "$rc" -eq $want ]
	check "10: ... at once" [ $((t1 - t0)) -le 3 ]
	# (a slow build may not have found the files yet)
	check "10: ... saying where it was" grep -qE "interrupted \(SIG$sig\) while (reading rank[0-7].log, file [1-8] of 8|finding the logs)" "$TMP/10.err"
	check "10: ... and no report" [ ! -s "$TMP/10.out" ]
done
rm -rf "$run"
# ... and reading a pipe that never ends (kubectl logs -f | rankwatch --report -)
mkfifo "$TMP/10.pipe"
sleep 60 > "$TMP/10.pipe" &
spid=$!
"$RW" --report - < "$TMP/10.pipe" > "$TMP/10.out" 2> "$TMP/10.err" &
pid=$!
# until it waits in read(0, ...) (a sanitizer build on a busy machine may
# still be loading its rules after half a second), 10 s at most
i=0
while [ $i -lt 100 ] && ! grep -q '^0 0x0 ' "/proc/$pid/syscall" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
t0=$(date +%s)
wait $pid; rc=$?
t1=$(date +%s)
kill $spid 2>/dev/null
check "10: SIGINT while reading standard input: exit 130" [ "$rc" -eq 130 ]
check "10: ... at once" [ $((t1 - t0)) -le 3 ]
check "10: ... naming it" grep -q "interrupted (SIGINT) while reading (stdin)" "$TMP/10.err"
finish
