#!/usr/bin/env bash
# fleet-bench.sh: what does following many jobs at once cost? One
# `rankwatch --watch --format jsonl` per job, every job's ranks writing
# training lines at a training rate, for a fixed window; per process: CPU
# over the window, steady and peak RSS, descriptors and inotify watches,
# the latency from a failure line to its event and verdict; with inotify,
# then polling as on NFS (RANKWATCH_NO_INOTIFY=1, every 1,000 ms). Also
# the one-shot `--report` of one job, and the limits of this machine that
# bound how many jobs one user can follow. The figures of doc/scale.md.
#
# Usage:  flock /tmp/rankwatch-bench.lock bench/fleet-bench.sh
#
# Environment:
#   BENCH_OUT=DIR        where the jobs live (default bench/out; under DIR/fleet)
#   FLEET_SHAPES="..."   JOBSxRANKS, each measured in turn (default "64x1024 1x1024
#                        64x8": 8 ranks stand for a sidecar per pod)
#   FLEET_WINDOW=S       seconds of writing per run (default 60)
#   FLEET_IDLE=S         seconds without writes before it (default 10)
#   FLEET_PERIOD=S       mean seconds between two lines of a rank (default 1.5,
#                        uniform jitter of +-1/3: 1 to 2 s)
#   FLEET_FAIL_JOBS=K    jobs that fail near the end, one a second (default 8)
#   FLEET_MODES="..."    default "inotify poll"
#   FLEET_RW_ARGS="..."  options for every rankwatch --watch (e.g. -j1, --poll=250)
#   FLEET_LIMIT_UID=U    as root: start max_user_instances + 8 rankwatch --watch
#                        as user U (default 65534, nobody: no other process
#                        loses an inotify instance) and count those that fall
#                        back to polling; "" skips it
#   BENCH_REPEAT=N       rounds (default 3; each round runs every mode once)
#   RANKWATCH=PATH       binary to measure (default ./rankwatch of this tree)
#
# The jobs are generated afresh before every run (fleet.py gen: genrun.py's
# compact start-up and 8 step lines per rank, about 1.2 KiB; 64 x 1,024
# ranks are 77 MiB and grow by about 350 MiB per minute of writing). The
# writer (fleet.py run) stands for the compute nodes: it runs at a higher
# priority than the rankwatch processes, so that the lines arrive at the
# rate asked even when they saturate the machine (its own CPU and its lag
# behind the schedule are printed). A benchmark, not a test: it exits 0
# unless a run fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
OUT=${BENCH_OUT:-$here/out}
RW=${RANKWATCH:-$top/rankwatch}
REPEAT=${BENCH_REPEAT:-3}
SHAPES=${FLEET_SHAPES:-"64x1024 1x1024 64x8"}
WINDOW=${FLEET_WINDOW:-60}
IDLE=${FLEET_IDLE:-10}
PERIOD=${FLEET_PERIOD:-1.5}
FAIL_JOBS=${FLEET_FAIL_JOBS:-8}
MODES=${FLEET_MODES:-"inotify poll"}
rw_args=()
for o in ${FLEET_RW_ARGS:-}; do rw_args+=(--rw-arg="$o"); done
TIME=/usr/bin/time
BENCH_NAME=fleet-bench
. "$here/lib.sh"

F=$OUT/fleet
mkdir -p "$F"

# ---------------------------------------------------------------- disk
need_kib=0
for s in $SHAPES; do
	j=${s%x*} r=${s#*x}
	# start-up 1.2 KiB + ~140 B per line written + the failure tails (3 KiB) per rank
	k=$(awk -v j="$j" -v r="$r" -v w="$WINDOW" -v p="$PERIOD" 'BEGIN {printf "%d", j * r * (1.2 + (w + 30) / p * 1.3 * 0.14 + 3) }')
	[ "$k" -gt "$need_kib" ] && need_kib=$k
done
avail_kib=$(df -Pk "$F" | awk 'NR == 2 {print $4}')
echo
echo "== disk: $F has $((avail_kib / 1024)) MiB free; the largest shape needs about $((need_kib / 1024)) MiB (one shape on disk at a time)"
[ "$avail_kib" -gt $((need_kib * 2)) ] || die "not enough free disk in $F"

# ---------------------------------------------------------------- limits
# inotify instances and watches are counted per user (real uid) across the
# machine; rankwatch --watch takes one instance and one watch per folder.
uid=$(id -u)
inst=0 watches=0
for p in /proc/[0-9]*; do
	[ "$(stat -c %u "$p" 2>/dev/null)" = "$uid" ] || continue
	for fd in "$p"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:inotify" ] || continue
		inst=$((inst + 1))
		watches=$((watches + $(grep -c '^inotify wd:' "$p/fdinfo/${fd##*/}" 2>/dev/null || true)))
	done
done
max_inst=$(cat /proc/sys/fs/inotify/max_user_instances)
max_w=$(cat /proc/sys/fs/inotify/max_user_watches)
echo
echo "== limits (this machine, uid $uid)"
printf '  fs.inotify.max_user_instances  %s (in use by this uid now: %s; so %s more rankwatch --watch can use inotify)\n' \
	"$max_inst" "$inst" "$((max_inst - inst))"
printf '  fs.inotify.max_user_watches    %s (in use by this uid now: %s)\n' "$max_w" "$watches"
printf '  fs.inotify.max_queued_events   %s\n' "$(cat /proc/sys/fs/inotify/max_queued_events)"
printf '  descriptors (ulimit -n)        soft %s, hard %s; fs.file-max %s\n' "$(ulimit -Sn)" "$(ulimit -Hn)" "$(cat /proc/sys/fs/file-max)"
printf '  user processes (ulimit -u)     %s; kernel.pid_max %s\n' "$(ulimit -u)" "$(cat /proc/sys/kernel/pid_max)"


LIMIT_UID=${FLEET_LIMIT_UID-65534}
if [ -n "$LIMIT_UID" ] && [ "$uid" = 0 ]; then
	echo
	echo "== past the inotify instance limit: $((max_inst + 8)) rankwatch --watch as uid $LIMIT_UID on a one-rank job"
	rm -rf "$F/limit"
	python3 "$here/fleet.py" limit "$F/limit" --rankwatch "$RW" --count $((max_inst + 8)) --uid "$LIMIT_UID"
	rm -rf "$F/limit"
fi

# ---------------------------------------------------------------- runs
gen_jobs() {	# gen_jobs JOBS RANKS: a fresh fleet in $F/run
	rm -rf "$F/run"
	python3 "$here/fleet.py" gen "$F/run" --jobs "$1" --ranks "$2" | sed 's/^/  /'
}

for s in $SHAPES; do
	j=${s%x*} r=${s#*x}
	echo
	echo "== $j jobs x $r ranks"
	# the one-shot report of one job, for comparison (warm, median of 3)
	gen_jobs 1 "$r"
	rm -f "$F/report.$s.t"
	for ((i = 1; i <= 3; i++)); do
		run_timed "$F/report.$s.t" "$RW" --report --format json "$F/run/job0"
	done
	echo "  raw --report of one job (s/KiB): $(awk '{printf "%s/%s  ", $1, $2}' "$F/report.$s.t")"
	rep_s=$(cut -d' ' -f1 "$F/report.$s.t" | median)
	rep_k=$(cut -d' ' -f2 "$F/report.$s.t" | maxof)
	printf '  --report of one job: %s s (%s ms per rank), peak RSS %s MiB (%s KiB per rank)\n' "$rep_s" \
		"$(awk -v s="$rep_s" -v n="$r" 'BEGIN {printf "%.3f", s * 1000 / n}')" \
		"$(awk -v k="$rep_k" 'BEGIN {printf "%.1f", k / 1024}')" "$(awk -v k="$rep_k" -v n="$r" 'BEGIN {printf "%.1f", k / n}')"
	results=()
	for ((i = 1; i <= REPEAT; i++)); do
		for m in $MODES; do
			gen_jobs "$j" "$r"
			res=$F/$s.$m.$i.json
			python3 "$here/fleet.py" run "$F/run" --jobs "$j" --ranks "$r" --rankwatch "$RW" --mode "$m" \
				--result "$res" --idle "$IDLE" --window "$WINDOW" --period "$PERIOD" \
				--fail-jobs "$FAIL_JOBS" ${rw_args[@]+"${rw_args[@]}"} | sed "s/^/  round $i: /"
			results+=("$res")
		done
	done
	echo
	echo "== $j jobs x $r ranks: rankwatch --watch --format jsonl, one process per job"
	python3 "$here/fleet.py" table "${results[@]}"
	rm -rf "$F/run"
done
printf '\n  load avg %s (at end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
