#!/bin/sh
# --format prometheus and --output, on the real binary: every sample's
# exposition passes promtool and says what its .truth file says; label
# values are escaped; a run with nothing read is never healthy; --output
# replaces its file whole and refuses a path it cannot write; --watch
# --format prometheus --output keeps the file current while the run is
# appended to, so that every read of it is a whole exposition, and leaves
# no temporary file behind on SIGTERM.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v promtool >/dev/null 2>&1; then
	echo "promtool is not installed (./bootstrap installs the prometheus package)"
	exit 1
fi
pids=""
# every process this test starts is ended with it
trap 'for pid in $pids; do kill "$pid" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# the metric families every exposition has (histograms count once)
FAMILIES="rankwatch_up rankwatch_info rankwatch_verdict rankwatch_confidence
rankwatch_initiating_known rankwatch_initiating_rank rankwatch_suspect_rank
rankwatch_diagnosis_score rankwatch_diagnoses rankwatch_ranks rankwatch_files
rankwatch_files_unreadable rankwatch_lines_total rankwatch_bytes_total
rankwatch_rank_idle_seconds rankwatch_rank_lag_seconds rankwatch_ranks_untimed
rankwatch_last_line_timestamp_seconds rankwatch_last_change_timestamp_seconds
rankwatch_generated_timestamp_seconds"
nfam=$(echo $FAMILIES | wc -w)

# whole FILE: promtool accepts it, it ends with a newline, and it has
# every family's TYPE line
promtool_ok() {
	promtool check metrics < "$1" > "$TMP/lint" 2>&1 && [ ! -s "$TMP/lint" ] && return 0
	sed 's/^/  | /' "$TMP/lint"
	return 1
}
whole() {
	[ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || return 1
	for f in $FAMILIES; do
		grep -q "^# TYPE $f " "$1" || return 1
	done
	[ "$(grep -c '^# TYPE ' "$1")" -eq "$nfam" ]
}
val() { sed -n "s/^$2 //p" "$1"; }	# val FILE SERIES: its value
truth() { sed -n "s/^$2: //p" "$1"; }

# --- every sample: promtool, and its truth ---------------------------------
for t in "$top_srcdir"/samples/*.truth; do
	name=$(basename "$t" .truth)
	out="$TMP/$name.prom"
	"$RW" --report --format prometheus "$top_srcdir/samples/$name" > "$out" 2> "$TMP/err"; rc=$?
	verdict=$(truth "$t" verdict)
	want=1; [ "$verdict" = healthy ] && want=0
	check "$name: exit status $want ($verdict)" [ "$rc" -eq "$want" ]
	check "$name: promtool check metrics accepts it" promtool_ok "$out"
	check "$name: a whole exposition, every family" whole "$out"
	check "$name: rankwatch_up 1" [ "$(val "$out" rankwatch_up)" = 1 ]
	check "$name: verdict $verdict, one-hot" sh -c '[ "$(grep -c "^rankwatch_verdict{.*} 1$" "$1")" -eq 1 ] &&
	    grep -qx "rankwatch_verdict{verdict=\"$2\"} 1" "$1"' _ "$out" "$verdict"
	init=$(truth "$t" initiating)
	if [ "$init" = none ]; then
		check "$name: no initiating rank (known 0, rank -1)" sh -c \
		    '[ "$1" = 0 ] && [ "$2" = -1 ]' _ "$(val "$out" rankwatch_initiating_known)" \
		    "$(val "$out" rankwatch_initiating_rank)"
	else
		check "$name: initiating rank $init" sh -c '[ "$1" = 1 ] && [ "$2" = "$3" ]' _ \
		    "$(val "$out" rankwatch_initiating_known)" "$(val "$out" rankwatch_initiating_rank)" "$init"
	fi
	entry=$(truth "$t" first_entry)
	if [ -n "$entry" ] && [ "$entry" != none ]; then
		check "$name: first diagnosis $entry, with its category and severity" sh -c \
		    'grep "^rankwatch_diagnosis_score{" "$1" | head -1 |
		    grep -q "^rankwatch_diagnosis_score{entry=\"$2\",category=\"[a-z-]*\",severity=\"[a-z]*\"} [01]\.[0-9]*$"' \
		    _ "$out" "$entry"
	fi
	check "$name: ranks by role add up to the histograms' and untimed ranks" sh -c \
	    '[ "$(sed -n "s/^rankwatch_ranks{role=.*} //p" "$1" | awk "{ n += \$1 } END { print n }")" -eq \
	    "$(( $(sed -n "s/^rankwatch_rank_lag_seconds_count //p" "$1") + $(sed -n "s/^rankwatch_ranks_untimed //p" "$1") ))" ]' _ "$out"
done

# --- README's alert rules: promtool, and on these metric names ------------
awk '/^<!-- prometheus rules -->$/ { on = 1; next } on && /^```yaml$/ { body = 1; next }
    body && /^```$/ { exit } body' "$top_srcdir/README.md" > "$TMP/rules.yml"
check "README has alert rules" [ "$(grep -c -- '- alert: ' "$TMP/rules.yml")" -ge 3 ]
check "... promtool check rules accepts them" sh -c \
    'promtool check rules "$1" > "$2" 2>&1 || { sed "s/^/  | /" "$2"; exit 1; }' _ "$TMP/rules.yml" "$TMP/rules.out"
names=$(grep -o 'rankwatch_[a-z_]*' "$TMP/rules.yml" | sort -u)
check "... on metrics an exposition has ($(echo $names))" sh -c 'for n in $2; do
    grep -q "^$n[{ ]" "$1" || { echo "  $n: no such series"; exit 1; }; done' _ "$TMP/oom-collateral.prom" "$names"

# --- label values escaped -----------------------------------------------------
weird="$TMP/we\"ird\\dir
two"
mkdir -p "$weird"
echo "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" > "$weird/rank0.log"
"$RW" --report --format prometheus "$weird" > "$TMP/weird.prom" 2>&1
check "a path with a quote, a backslash and a newline: promtool accepts it" promtool_ok "$TMP/weird.prom"
check "... escaped as the format says" grep -qF 'we\"ird\\dir\ntwo"' "$TMP/weird.prom"

# --- nothing read is no verdict ----------------------------------------------
mkdir -p "$TMP/empty"
: > "$TMP/empty/rank0.log"
"$RW" --report --format prometheus "$TMP/empty" > "$TMP/empty.prom" 2> "$TMP/empty.err"; rc=$?
check "nothing read: exit 2" [ "$rc" -eq 2 ]
check "... an exposition all the same, promtool accepts it" promtool_ok "$TMP/empty.prom"
check "... rankwatch_up 0, lines 0" sh -c '[ "$1" = 0 ] && [ "$2" = 0 ]' _ "$(val "$TMP/empty.prom" rankwatch_up)" \
    "$(val "$TMP/empty.prom" rankwatch_lines_total)"
check "... and no verdict is 1, least of all healthy" sh -c '! grep -q "^rankwatch_verdict{.*} 1$" "$1" &&
    grep -qx "rankwatch_verdict{verdict=\"healthy\"} 0" "$1"' _ "$TMP/empty.prom"
"$RW" --report --format prometheus --output "$TMP/empty-out.prom" "$TMP/empty" 2>/dev/null; rc=$?
check "... with --output too (exit 2, the file says up 0)" sh -c '[ "$1" -eq 2 ] && grep -qx "rankwatch_up 0" "$2"' \
    _ "$rc" "$TMP/empty-out.prom"

# --- --output ---------------------------------------------------------------
mkdir -p "$TMP/textfile"
oom="$top_srcdir/samples/oom-collateral"
"$RW" --report --format prometheus --output "$TMP/textfile/rankwatch.prom" "$oom" > "$TMP/stdout" 2>&1; rc=$?
check "--report --output: exit 1 (a failure), nothing on standard output" sh -c '[ "$1" -eq 1 ] && [ ! -s "$2" ]' \
    _ "$rc" "$TMP/stdout"
check "... the file is the exposition" promtool_ok "$TMP/textfile/rankwatch.prom"
check "... readable by others (a collector runs as another user; umask 022)" \
    [ "$(umask 022; "$RW" --report --format prometheus --output "$TMP/textfile/m.prom" "$oom" 2>/dev/null; stat -c %a "$TMP/textfile/m.prom")" = 644 ]
check "... no temporary file left beside it" [ "$(ls -A "$TMP/textfile" | tr '\n' ' ')" = "m.prom rankwatch.prom " ]
for f in text json markdown; do
	"$RW" --report --format $f --output "$TMP/textfile/report.$f" "$oom" > /dev/null 2>&1
	"$RW" --report --format $f "$oom" > "$TMP/report.$f" 2>/dev/null
	check "--report --format $f --output: the same report as on standard output" cmp -s "$TMP/textfile/report.$f" "$TMP/report.$f"
done
echo old > "$TMP/textfile/old.prom"
"$RW" --report --format prometheus --output "$TMP/textfile/old.prom" "$oom" 2>/dev/null
check "an existing file is replaced" sh -c '! grep -q "^old$" "$1" && grep -q "^rankwatch_up 1$" "$1"' _ "$TMP/textfile/old.prom"
# paths it cannot write: exit 2, one line naming the path, before reading
for bad in "$TMP/no/such/folder/m.prom" "$TMP/textfile/old.prom/under-a-file.prom" "$TMP/textfile/"; do
	for mode in report watch; do
		if [ $mode = report ]; then
			timeout 20 "$RW" --report --format prometheus --output "$bad" "$oom" > "$TMP/bad.out" 2>&1; rc=$?
		else
			timeout 20 "$RW" --watch --format prometheus --output "$bad" "$oom" > "$TMP/bad.out" 2>&1; rc=$?
		fi
		check "--$mode --output $bad: exit 2" [ "$rc" -eq 2 ]
		check "... one line naming the path" sh -c '[ "$(wc -l < "$1")" -eq 1 ] && grep -qF -- "--output $2" "$1"' _ "$TMP/bad.out" "$bad"
	done
done
"$RW" --watch --format prometheus "$oom" > "$TMP/f.out" 2>&1; rc=$?
check "--watch --format prometheus without --output: exit 2, one line" sh -c \
    '[ "$1" -eq 2 ] && [ "$(wc -l < "$2")" -eq 1 ] && grep -q "needs --output" "$2"' _ "$rc" "$TMP/f.out"
"$RW" --watch --format jsonl --output "$TMP/x" "$oom" > "$TMP/f.out" 2>&1; rc=$?
check "--watch --format jsonl --output: refused (exit 2)" sh -c '[ "$1" -eq 2 ] && grep -q "goes with" "$2"' _ "$rc" "$TMP/f.out"
"$RW" --list-rules --format prometheus > "$TMP/f.out" 2>&1; rc=$?
check "--list-rules --format prometheus: refused (exit 2)" [ "$rc" -eq 2 ]

# --- --watch --format prometheus --output ------------------------------------
# the first 1373 lines of oom-collateral are healthy; the rest (rank 11's
# OOM, then the others' timeouts) is appended while it is watched
run="$TMP/live/run"
mkdir -p "$run"
src="$oom/slurm-90211.out"
head -n 1373 "$src" > "$run/slurm-90211.out"
F="$TMP/live/textfile/rankwatch.prom"
mkdir -p "$TMP/live/textfile"
"$RW" --watch --format prometheus --output "$F" --poll=200 "$run" > "$TMP/live.out" 2> "$TMP/live.err" &
pid=$!
pids="$pids $pid"
# wait_prom SERIES VALUE: up to 10 s for F to show it
wait_prom() {
	i=0
	while [ $i -lt 100 ]; do
		[ -f "$F" ] && grep -qx "$1 $2" "$F" && return 0
		sleep 0.1; i=$((i + 1))
	done
	echo "  $F while waiting for '$1 $2':"; grep -v '^#' "$F" 2>/dev/null | sed 's/^/  | /' | head -20
	return 1
}
check "watch: the file says healthy first" wait_prom 'rankwatch_verdict{verdict="healthy"}' 1
cp "$F" "$TMP/before.prom"
check "... a whole exposition that promtool accepts" promtool_ok "$TMP/before.prom"
check "... 1373 lines read" [ "$(val "$TMP/before.prom" rankwatch_lines_total)" = 1373 ]
# a reader of the file while it is rewritten, as a collector reads it
(
	n=0
	while [ ! -e "$TMP/stop-reading" ] && [ $n -lt 2000 ]; do
		cat "$F" > "$TMP/read.$n" 2>/dev/null || echo "missing $n" >> "$TMP/read.missing"
		n=$((n + 1))
		sleep 0.01
	done
) &
reader=$!
pids="$pids $reader"
# the rest of the run, a few lines at a time
tail -n +1374 "$src" > "$TMP/rest"
total=$(wc -l < "$TMP/rest")
at=1
while [ "$at" -le "$total" ]; do
	sed -n "${at},$((at + 49))p" "$TMP/rest" >> "$run/slurm-90211.out"
	at=$((at + 50))
	sleep 0.05
done
check "watch: the verdict turns to failure" wait_prom 'rankwatch_verdict{verdict="failure"}' 1
check "... rank 11 first" wait_prom rankwatch_initiating_rank 11
check "... every line read" wait_prom rankwatch_lines_total "$(wc -l < "$src")"
check "... healthy is 0 now" grep -qx 'rankwatch_verdict{verdict="healthy"} 0' "$F"
check "... the last change is no earlier than the first file's" sh -c '[ "$1" -ge "$2" ]' _ \
    "$(val "$F" rankwatch_last_change_timestamp_seconds)" "$(val "$TMP/before.prom" rankwatch_last_change_timestamp_seconds)"
sleep 0.5
touch "$TMP/stop-reading"
wait "$reader"
reads=$(ls "$TMP" | grep -c '^read\.[0-9]*$')
check "the reader read the file many times ($reads)" [ "$reads" -gt 20 ]
check "... it was never missing" [ ! -e "$TMP/read.missing" ]
bad=0
for r in "$TMP"/read.*; do
	whole "$r" || { bad=$((bad + 1)); echo "  not whole: $r"; }
done
check "... every read is a whole exposition (ends with a newline, every family)" [ "$bad" -eq 0 ]
# promtool on a sample of the reads (it takes a while each)
bad=0
for r in $(ls "$TMP"/read.* | awk 'NR % 10 == 1'); do
	promtool_ok "$r" || bad=$((bad + 1))
done
check "... and promtool accepts every tenth" [ "$bad" -eq 0 ]
distinct=$(for r in "$TMP"/read.*; do grep '^rankwatch_lines_total ' "$r"; done | sort -u | wc -l)
check "... the file was rewritten as the run grew ($distinct states)" [ "$distinct" -gt 2 ]
check "... at most once per poll interval (200 ms): fewer states than reads" [ "$distinct" -lt "$reads" ]
kill -TERM $pid
wait $pid; rc=$?
check "SIGTERM: status 0" [ "$rc" -eq 0 ]
check "... nothing but the file left in its folder (no temporary file)" [ "$(ls -A "$TMP/live/textfile")" = rankwatch.prom ]
check "... nothing on standard output" [ ! -s "$TMP/live.out" ]
sed 's/^/  stderr: /' "$TMP/live.err"

# --watch before anything is written: up 0, no verdict; then lines come
mkdir -p "$TMP/late"
: > "$TMP/late/rank0.log"
F="$TMP/late.prom"
"$RW" --watch --format prometheus --output "$F" --poll=200 "$TMP/late" > /dev/null 2> "$TMP/late.err" &
pid=$!
pids="$pids $pid"
check "watch, nothing written yet: rankwatch_up 0" wait_prom rankwatch_up 0
check "... no verdict is 1" sh -c '! grep -q "^rankwatch_verdict{.*} 1$" "$1"' _ "$F"
check "... said on stderr" grep -q "nothing to analyse yet" "$TMP/late.err"
echo "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1" >> "$TMP/late/rank0.log"
check "... a line comes: up 1, healthy" wait_prom 'rankwatch_verdict{verdict="healthy"}' 1
kill -TERM $pid
wait $pid
check "... no temporary file left" [ "$(ls -A "$TMP" | grep -c '^\.late\.prom\.')" -eq 0 ]
finish
