#!/bin/sh
# --watch --format jsonl on real files with real inotify (and forced
# polling): appended lines, new files, copytruncate, rotation, deletion, a
# file replaced by a symlink, a removed folder, 1,000 files, SIGTERM.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# wait_for FILE TEXT: up to 10 s for TEXT to appear in FILE
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1; i=$((i + 1))
	done
	echo "  $1 while waiting for '$2':"; sed 's/^/  | /' "$1"
	return 1
}
line() { echo "[2024-03-02 10:00:$1,000] [INFO] [t.py:1:f] $2"; }

for mode in inotify poll nfs; do
	run="$TMP/$mode"
	mkdir -p "$run"
	line 00 "step 1" > "$run/rank0.log"
	line 00 "step 1" > "$run/rank1.log"
	opt=""; [ "$mode" != inotify ] && opt="--poll=200"
	# nfs: inotify hears nothing, as for writes from other hosts
	noino=""; [ "$mode" = nfs ] && noino=1
	env ${noino:+RANKWATCH_NO_INOTIFY=1} "$RW" --watch --format jsonl $opt "$run" > "$TMP/$mode.out" 2> "$TMP/$mode.err" &
	pid=$!
	check "$mode: starts healthy" wait_for "$TMP/$mode.out" '"verdict": "healthy"'
	echo "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" >> "$run/rank1.log"
	check "$mode: an appended OOM line is an event" wait_for "$TMP/$mode.out" '"entry": "cuda-oom"'
	check "$mode: ... and the verdict changes" wait_for "$TMP/$mode.out" '"verdict": "failure", "initiating": 1'
	line 01 "late rank" > "$run/rank2.log"
	check "$mode: a new file is read" wait_for "$TMP/$mode.err" "rank2.log: appeared"
	# copytruncate: the same file, emptied, written again
	: > "$run/rank0.log"
	line 02 "Sending process 17942 closing signal SIGTERM" >> "$run/rank0.log"
	check "$mode: truncation is noticed" wait_for "$TMP/$mode.err" "rank0.log: truncated"
	check "$mode: ... and the new line is read" wait_for "$TMP/$mode.out" '"entry": "teardown-sigterm"'
	# rotation: a new file moved into place under the same name
	line 03 "step 9" > "$run/rank2.log.new"
	line 03 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB" >> "$run/rank2.log.new"
	mv "$run/rank2.log.new" "$run/rank2.log"
	check "$mode: rotation is noticed" wait_for "$TMP/$mode.err" "rank2.log: replaced by a new file"
	# rotation by renaming (logrotate's default): the renamed file is not
	# read again, so rank 1's OOM is still one event
	mv "$run/rank1.log" "$run/rank1.log.1"
	line 05 "step 10" > "$run/rank1.log"
	check "$mode: a renamed file is known" wait_for "$TMP/$mode.err" "rank1.log.1: is rank1.log, rotated"
	sleep 0.5
	check "$mode: ... and its OOM not reported twice" \
	    [ "$(grep '"type": "event"' "$TMP/$mode.out" | grep '"entry": "cuda-oom"' | grep -c '"rank": 1,')" -eq 1 ]
	# deletion, a symlink in place of a file, a removed folder: no crash
	rm "$run/rank2.log"
	ln -s "$run/rank1.log" "$run/rank2.log"
	mkdir -p "$run/sub"; line 04 "x" > "$run/sub/rank5.log"
	sleep 0.5
	rm -rf "$run/sub"
	sleep 0.5
	check "$mode: still running after deletions" kill -0 $pid
	# the removed folder made again: it is watched again
	mkdir -p "$run/sub"; sleep 0.5
	line 06 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB" > "$run/sub/rank6.log"
	check "$mode: a folder made again is read again" wait_for "$TMP/$mode.err" "sub/rank6.log: appeared"
	kill -TERM $pid
	wait $pid; rc=$?
	check "$mode: SIGTERM ends it cleanly (status 0)" [ "$rc" -eq 0 ]
	check "$mode: every output line is JSON" python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/$mode.out"
done

# The contract for an alert pipe started mid-run: one verdict on what was
# already written, then only what is new; --replay prints the backlog's
# events first; progress and context events only with --all-events.
run="$TMP/contract"
mkdir -p "$run"
line 00 "step 1" > "$run/rank0.log"
echo "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" > "$run/rank1.log"
step() { echo "[2024-03-02 10:00:$1,000] [INFO] [train.py:90:train_step] step $2 loss=1.9 2210ms/it"; }
"$RW" --watch --format jsonl "$run" > "$TMP/contract.out" 2> "$TMP/contract.err" &
pid=$!
check "contract: the first line is the verdict so far" wait_for "$TMP/contract.out" '"verdict": "failure", "initiating": 1'
check "contract: ... and it is the only line (no backlog)" [ "$(wc -l < "$TMP/contract.out")" -eq 1 ]
step 01 100 >> "$run/rank0.log"
echo "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB" >> "$run/rank0.log"
check "contract: a new failure is an event" wait_for "$TMP/contract.out" '"rank": 0,'
check "contract: ... the backlog's is not" [ "$(grep -c '"rank": 1,' "$TMP/contract.out")" -eq 0 ]
check "contract: a progress line is left out" [ "$(grep -c '"role": "progress"' "$TMP/contract.out")" -eq 0 ]
kill -TERM $pid; wait $pid
"$RW" --watch --format jsonl --replay "$run" > "$TMP/replay.out" 2>&1 &
pid=$!
check "--replay: the verdict comes" wait_for "$TMP/replay.out" '"type": "verdict"'
kill -TERM $pid; wait $pid
check "--replay: the backlog's events come first" sh -c "head -1 '$TMP/replay.out' | grep -q '\"type\": \"event\"'"
check "--replay: both failures, no progress" [ "$(grep '"type": "event"' "$TMP/replay.out" | grep -c '"entry": "cuda-oom"')" -eq 2 ] && \
    [ "$(grep -c '"role": "progress"' "$TMP/replay.out")" -eq 0 ]
"$RW" --watch --format jsonl --replay --all-events "$run" > "$TMP/all.out" 2>&1 &
pid=$!
check "--all-events: the verdict comes" wait_for "$TMP/all.out" '"type": "verdict"'
kill -TERM $pid; wait $pid
check "--all-events: the progress line is there" grep -q '"role": "progress"' "$TMP/all.out"
# text: the verdict line, then each new event in two lines
"$RW" --watch "$run" > "$TMP/text.out" 2>&1 &
pid=$!
check "text: the verdict so far" wait_for "$TMP/text.out" "failure: rank 0 failed first"
echo "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB" >> "$run/rank0.log"
check "text: a new event names file, line, rank, role and entry" wait_for "$TMP/text.out" "rank0.log:4  rank 2"
check "text: ... role and entry" grep -q "rank0.log:4  rank 2 .*\[initiating cuda-oom\]" "$TMP/text.out"
kill -TERM $pid; wait $pid
# formats that do not go with --watch are refused, not ignored
for f in json markdown; do
	"$RW" --watch --format $f "$run" > "$TMP/f.out" 2>&1; rc=$?
	check "--watch --format $f is refused (exit 2, a message)" [ "$rc" -eq 2 ] && grep -q "goes with" "$TMP/f.out"
done
"$RW" --replay "$run" > "$TMP/f.out" 2>&1; rc=$?
check "--replay without --watch is refused" [ "$rc" -eq 2 ] && grep -q "goes with --watch" "$TMP/f.out"

# 1,000 files: one watch per folder, every file read.
many="$TMP/many"
mkdir -p "$many"
i=0
while [ $i -lt 1000 ]; do line 00 "step 1" > "$many/rank$i.log"; i=$((i + 1)); done
"$RW" --watch --format jsonl "$many" > "$TMP/many.out" 2>&1 &
pid=$!
check "1,000 files: starts" wait_for "$TMP/many.out" '"verdict": "healthy"'
echo "[rank999]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB" >> "$many/rank999.log"
check "1,000 files: an append to the last one is seen" wait_for "$TMP/many.out" '"initiating": 999'
kill -INT $pid
wait $pid; rc=$?
check "SIGINT ends it cleanly too" [ "$rc" -eq 0 ]

# A JSON document (a log store's export) being written: said to be
# incomplete, then read when whole.
mkdir -p "$TMP/doc"
doc=$top_srcdir/samples/es-illegal-memory-access/search-response.json
head -c 300 "$doc" > "$TMP/doc/hits.json"
"$RW" --watch --format jsonl "$TMP/doc" > "$TMP/doc.out" 2>&1 &
pid=$!
check "a JSON document cut short: said to be incomplete, with its line" \
    wait_for "$TMP/doc.out" "hits.json:18: a JSON document not complete yet"
tail -c +301 "$doc" >> "$TMP/doc/hits.json"
check "... and read when it is whole" wait_for "$TMP/doc.out" '"initiating": 3'
kill -TERM $pid
wait $pid
finish
