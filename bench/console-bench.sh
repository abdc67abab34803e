#!/usr/bin/env bash
# console-bench.sh: how much memory does the console take to load a big
# run? rankwatch is opened on each run in a real terminal (a detached tmux
# session, 200x50), the header is read until it stops saying "loading"
# (the console then follows the run), and the process's peak RSS (VmHWM)
# is read from /proc, next to the log bytes and the issue's target (15 %).
#
# Usage:  bench/console-bench.sh            (from anywhere)
#
# Environment:
#   BENCH_OUT=DIR     where the runs live (default bench/out; shared with
#                     report-bench.sh and rank-sweep.sh)
#   BENCH_RUNS="name:ranks:size ..."   default
#                     "r256x4M:256:4MiB r4096x256K:4096:256KiB r16384x16K:16384:16KiB"
#   BENCH_REPEAT=N    openings per run (default 3; the peak RSS is the
#                     largest, the load time the median)
#   RANKWATCH=PATH    binary to measure (default ./rankwatch of this tree)
#
# Warm runs; a benchmark, not a test: nothing here is part of make check.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
OUT=${BENCH_OUT:-$here/out}
RW=${RANKWATCH:-$top/rankwatch}
REPEAT=${BENCH_REPEAT:-3}
RUNS=${BENCH_RUNS:-"r256x4M:256:4MiB r4096x256K:4096:256KiB r16384x16K:16384:16KiB"}
TIME=/usr/bin/time
BENCH_NAME=console-bench
. "$here/lib.sh"
command -v tmux >/dev/null || die "tmux is needed (apt-get install tmux)"

sess=rw-console-bench-$$
trap 'tmux kill-session -t "$sess" 2>/dev/null || true' EXIT

# One opening: prints "seconds-to-load peak-KiB".
open_once() {
	local dir=$1 pid t0 head i
	tmux kill-session -t "$sess" 2>/dev/null || true
	t0=$EPOCHREALTIME
	tmux new-session -d -s "$sess" -x 200 -y 50 "exec '$RW' '$dir'"
	pid=$(tmux list-panes -t "$sess" -F '#{pane_pid}')
	for ((i = 0; i < 6000; i++)); do	# 10 min at most
		head=$(tmux capture-pane -p -t "$sess" 2>/dev/null | head -1)
		case $head in
		*loading*) ;;
		*" files "*) break ;;	# the header is up, and loading is over
		esac
		sleep 0.1
	done
	[ "$i" -lt 6000 ] || die "the console did not finish loading $dir in 10 min"
	awk -v a="$t0" -v b="$EPOCHREALTIME" -v k="$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")" \
	    'BEGIN {printf "%.2f %d\n", b - a, k}'
	tmux kill-session -t "$sess"
}

rows=()
for spec in $RUNS; do
	IFS=: read -r name ranks size <<<"$spec"
	dir=$OUT/$name
	echo
	echo "== $name: $ranks ranks x $size"
	gen_run "$dir" "$ranks" "$size"
	bytes=$(find "$dir" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
	find "$dir" -type f -print0 | xargs -0 cat > /dev/null	# warm
	raw=()
	for ((r = 1; r <= REPEAT; r++)); do
		raw+=("$(open_once "$dir")")
	done
	echo "  raw (s to load / peak KiB): ${raw[*]/ //}"
	s=$(printf '%s\n' "${raw[@]}" | cut -d' ' -f1 | median)
	k=$(printf '%s\n' "${raw[@]}" | cut -d' ' -f2 | maxof)
	rows+=("$name|$(awk -v b="$bytes" 'BEGIN {printf "%.0f", b / 1048576}')|$s|$(awk -v k="$k" 'BEGIN {printf "%.1f", k / 1024}')|$(awk -v k="$k" -v b="$bytes" 'BEGIN {printf "%.1f", 100 * k * 1024 / b}')|$(awk -v k="$k" -v b="$bytes" 'BEGIN {print (k * 1024 <= 0.15 * b) ? "meets" : "MISSES"}')")
done

echo
echo "== console: load time (median of $REPEAT) and peak RSS (largest), target <= 15% of the log bytes"
{
	echo "run|log MiB|load s|peak RSS MiB|% of logs|target 15%"
	printf '%s\n' "${rows[@]}"
} | awk -F'|' '{printf "  %-12s %8s %8s %13s %10s %11s\n", $1, $2, $3, $4, $5, $6}'
