#!/usr/bin/env bash
# rank-sweep.sh: does the cost of `rankwatch --report` grow linearly with
# the ranks? The same bytes per rank, 1,024 to 131,072 ranks; time and peak
# RSS per rank for each, next to ripgrep (default threads and -j1) with the
# same patterns on the same files, in the same run.
#
# Usage:  bench/rank-sweep.sh            (from anywhere)
#
# Environment:
#   BENCH_OUT=DIR      where the runs live (default bench/out; reused while
#                      genrun.py and the parameters are unchanged)
#   SWEEP_RANKS="..."  default "1024 4096 16384 65536 131072"
#   SWEEP_SIZE=S       bytes per rank (default 16KiB: 131,072 ranks are then
#                      2 GiB of logs; genrun.py goes down to 1KiB, a compact
#                      layout below 16KiB: 131,072 ranks x 1KiB = 128 MiB)
#   BENCH_REPEAT=N     timed repetitions per tool and size (default 3; median)
#   RANKWATCH=PATH     binary to measure (default ./rankwatch of this tree)
#   SWEEP_FAIL=all     every rank fails (a CUDA OOM of its own, at a second
#                      of one minute drawn for it, after a step line),
#                      instead of genrun.py's run where one rank fails and
#                      the others time out: what the initiating pass and
#                      the ties cost when all ranks are candidates (the
#                      bytes per rank are then about 250, not SWEEP_SIZE)
#
# It fails loudly (exit 1, "SUPERLINEAR") when the time or the peak RSS per
# rank at the largest size is more than twice what it is at the smallest:
# a cost that grows faster than the ranks. Warm runs; a benchmark, not a
# test: nothing here is part of make check.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
OUT=${BENCH_OUT:-$here/out}
RW=${RANKWATCH:-$top/rankwatch}
REPEAT=${BENCH_REPEAT:-3}
SIZES=${SWEEP_RANKS:-"1024 4096 16384 65536 131072"}
SIZE=${SWEEP_SIZE:-16KiB}
TIME=/usr/bin/time
BENCH_NAME=rank-sweep
. "$here/lib.sh"

rows=()
first_us= first_kib=
worst=0

# gen_allfail DIR RANKS: a run where every rank fails (SWEEP_FAIL=all),
# or the one made before with the same parameters
gen_allfail() {
	local dir=$1 ranks=$2 stamp="allfail ranks=$2 v1"

	if [ -f "$dir.stamp" ] && [ "$(cat "$dir.stamp")" = "$stamp" ] && [ -d "$dir" ]; then
		echo "  reusing $dir"
		return
	fi
	rm -rf "$dir" "$dir.stamp"
	mkdir -p "$dir"
	python3 - "$dir" "$ranks" <<'PY'
import random, sys
out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
for k in range(n):
    s = rng.randint(0, 59)
    with open("%s/rank%d.log" % (out, k), "w") as f:
        f.write("2024-12-18 19:01:%02d,650 INFO train.py:196 step 40001 | 1118.1 ms/step\n" % s)
        f.write("2024-12-18 19:02:%02d,%03d ERROR [rank%d]: torch.OutOfMemoryError: CUDA out of "
                "memory. Tried to allocate 3.91 GiB. GPU 4 has a total capacity of 79.10 GiB "
                "of which 2.87 GiB is free.\n" % (s, rng.randint(0, 999), k))
PY
	echo "$stamp" > "$dir.stamp"
}

for ranks in $SIZES; do
	if [ "${SWEEP_FAIL:-}" = all ]; then
		name=sweepfail${ranks}
		dir=$OUT/$name
		echo
		echo "== $ranks ranks, every one failing"
		gen_allfail "$dir" "$ranks"
	else
		name=sweep${ranks}x$SIZE
		dir=$OUT/$name
		echo
		echo "== $ranks ranks x $SIZE"
		gen_run "$dir" "$ranks" "$SIZE"
	fi
	bytes=$(find "$dir" -name 'rank*.log' -printf '%s\n' | awk '{s += $1} END {print s}')
	find "$dir" -name 'rank*.log' -print0 | xargs -0 cat > /dev/null	# warm
	rm -f "$OUT/$name".t.*
	for ((i = 1; i <= REPEAT; i++)); do
		run_timed "$OUT/$name.t.rw" "$RW" --report --format json "$dir"
		run_timed "$OUT/$name.t.rg" "${rg_dir[@]}" -c -f "$pat_rg" "$dir"
		run_timed "$OUT/$name.t.rg1" "${rg_dir[@]}" -j1 -c -f "$pat_rg" "$dir"
	done
	for t in rw rg rg1; do
		echo "  raw $t (s/KiB): $(awk '{printf "%s/%s  ", $1, $2}' "$OUT/$name.t.$t")"
	done
	s_rw=$(cut -d' ' -f1 "$OUT/$name.t.rw" | median)
	s_rg=$(cut -d' ' -f1 "$OUT/$name.t.rg" | median)
	s_rg1=$(cut -d' ' -f1 "$OUT/$name.t.rg1" | median)
	k_rw=$(cut -d' ' -f2 "$OUT/$name.t.rw" | maxof)
	k_rg=$(cut -d' ' -f2 "$OUT/$name.t.rg" | maxof)
	us=$(awk -v s="$s_rw" -v n="$ranks" 'BEGIN {printf "%.1f", s * 1e6 / n}')
	kib=$(awk -v k="$k_rw" -v n="$ranks" 'BEGIN {printf "%.2f", k / n}')
	[ -z "$first_us" ] && first_us=$us first_kib=$kib
	gt=$(awk -v a="$us" -v b="$first_us" 'BEGIN {printf "%.2f", a / b}')
	gk=$(awk -v a="$kib" -v b="$first_kib" 'BEGIN {printf "%.2f", a / b}')
	flag=linear
	if awk -v a="$gt" -v b="$gk" 'BEGIN {exit !(a > 2 || b > 2)}'; then
		flag=SUPERLINEAR
		worst=1
	fi
	rows+=("$ranks|$(awk -v b="$bytes" 'BEGIN {printf "%.0f", b / 1048576}')|$s_rw|$us|$gt|$(awk -v k="$k_rw" 'BEGIN {printf "%.1f", k / 1024}')|$kib|$gk|$s_rg|$s_rg1|$(awk -v k="$k_rg" 'BEGIN {printf "%.1f", k / 1024}')|$(awk -v a="$s_rg" -v b="$s_rw" 'BEGIN {printf "%.2f", a / b}')|$(awk -v a="$s_rg1" -v b="$s_rw" 'BEGIN {printf "%.2f", a / b}')|$flag")
done

echo
echo "== rank sweep (median of $REPEAT warm runs; per rank = figure / ranks; growth = per-rank figure / the smallest size's)"
{
	echo "ranks|MiB|rankwatch s|us/rank|growth|peak RSS MiB|KiB/rank|growth|rg s|rg -j1 s|rg RSS MiB|rg/rw|rg -j1/rw|cost"
	printf '%s\n' "${rows[@]}"
} | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
	END {
		for (r = 1; r <= n; r++) {
			line = ""
			for (i = 1; i <= nf; i++) line = line sprintf("%*s  ", w[i], c[r, i])
			print "  " line
		}
	}'
echo "  (rg/rw above 1: rankwatch is faster than that ripgrep; rg uses every core here, $(nproc))"
printf '\n  load avg %s (at end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$worst" -ne 0 ]; then
	echo "rank-sweep: SUPERLINEAR: a per-rank cost more than doubled from the smallest to a larger run" >&2
	exit 1
fi
