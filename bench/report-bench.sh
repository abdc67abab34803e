#!/usr/bin/env bash
# report-bench.sh: how fast and how lean is `rankwatch --report` on big runs,
# compared with ripgrep scanning the same files for the same patterns?
#
# Usage:  bench/report-bench.sh            (from anywhere; see bench/README.md)
#
# Environment:
#   BENCH_OUT=DIR     where the generated runs live (default bench/out, which is
#                     git-ignored; runs are reused while genrun.py and the
#                     parameters are unchanged)
#   BENCH_RUNS="name:ranks:size ..."   default
#                     "r256x4M:256:4MiB r4096x256K:4096:256KiB" (1 GiB each)
#   BENCH_REPEAT=N    timed repetitions per tool and run (default 5; median kept)
#   RANKWATCH=PATH    binary to measure (default ./rankwatch of this tree); it
#                     is copied with the rules/ folder next to it (which is
#                     where rankwatch looks for its rulebook first) into
#                     $BENCH_OUT/snapshot, so a rebuild during the benchmark
#                     does not change what is measured
#   BENCH_PCRE_MIB=N  rg -P (PCRE2) is timed once, on the first files of each
#                     run that add up to at least N MiB (default 32; 0 skips
#                     it): with ~150 patterns in one PCRE2 alternation it runs
#                     at about 1 MiB/s, too slow for whole 1 GiB runs
#
# Everything runs warm: the files are read once (cat > /dev/null) before the
# timings, and nothing is dropped from the page cache.  This is a benchmark,
# not a test: it prints figures and "meets target" marks, and exits 0 unless
# a tool fails to run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
OUT=${BENCH_OUT:-$here/out}
RW=${RANKWATCH:-$top/rankwatch}
REPEAT=${BENCH_REPEAT:-5}
PCRE_MIB=${BENCH_PCRE_MIB:-32}
RUNS=${BENCH_RUNS:-"r256x4M:256:4MiB r4096x256K:4096:256KiB"}
TIME=/usr/bin/time

BENCH_NAME=report-bench
. "$here/lib.sh"

rows=()
checks=()
pcre_note=

# ---------------------------------------------------------------- runs
for spec in $RUNS; do
	IFS=: read -r name ranks size <<<"$spec"
	dir=$OUT/$name
	echo
	echo "== run $name: $ranks ranks x $size"
	gen_run "$dir" "$ranks" "$size"
	files=()
	for ((r = 0; r < ranks; r++)); do files+=("$dir/rank$r.log"); done
	bytes=$(cat "${files[@]}" | wc -c)       # also the warm-up read
	cat "${files[@]}" > /dev/null
	mib=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}')
	target_rss=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", 64 + 0.02 * b / 1048576}')
	echo "  $ranks files, $bytes bytes ($mib MiB), warm (read twice before timing)"
	printf '  load avg %s before timing\n' "$(cut -d' ' -f1-3 /proc/loadavg)"

	# sanity: what rankwatch concludes, how many lines rg matches
	set +e
	"$RW" --report --format json "$dir" > "$OUT/$name.json" 2>"$OUT/$name.err"; rwrc=$?
	set -e
	[ $rwrc -le 1 ] || die "rankwatch failed on $dir (exit $rwrc): $(head -3 "$OUT/$name.err")"
	python3 - "$OUT/$name.json" "$((ranks * 5 / 13))" <<-'EOF' | sed 's/^/  /'
		import json, sys
		d = json.load(open(sys.argv[1]))
		ini = d.get("initiating") or {}
		run = d.get("run", {})
		print("rankwatch: verdict %s, initiating rank %s (generated failing rank %s), %s lines, %s ranks, %d diagnoses: %s"
		      % (d.get("verdict"), ini.get("rank"), sys.argv[2], run.get("lines"), run.get("ranks"),
		         len(d.get("diagnoses", [])), ", ".join("%s(%s)" % (x["entry"], x["ranks"]) for x in d.get("diagnoses", []))))
	EOF
	m_rg=$(rg --no-config -j1 -c -f "$pat_rg" "${files[@]}" | awk -F: '{s += $NF} END {print s + 0}')
	echo "  lines matching a pattern (rg, $nkeep patterns): $m_rg of $(cat "${files[@]}" | wc -l)"

	# the rg -P sample: the first files adding up to PCRE_MIB
	sample=()
	sbytes=0
	if [ "$PCRE_MIB" -gt 0 ]; then
		for f in "${files[@]}"; do
			sample+=("$f")
			sbytes=$((sbytes + $(stat -c %s "$f")))
			[ $sbytes -ge $((PCRE_MIB * 1048576)) ] && break
		done
		smib=$(awk -v b="$sbytes" 'BEGIN {printf "%.1f", b / 1048576}')
	fi

	# timed runs, tools interleaved so that background noise hits both
	rm -f "$OUT/$name".t.*
	for ((i = 1; i <= REPEAT; i++)); do
		run_timed "$OUT/$name.t.rw" "$RW" --report --format json "$dir"
		run_timed "$OUT/$name.t.rg" rg --no-config -j1 -c -f "$pat_rg" "${files[@]}"
	done
	[ ${#sample[@]} -gt 0 ] && run_timed "$OUT/$name.t.rgp" rg --no-config -j1 -P -c -f "$pat_rgp" "${sample[@]}"
	printf '  load avg %s after timing\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	for t in rw rg rgp; do
		[ -f "$OUT/$name.t.$t" ] || continue
		echo "  raw $t (s/KiB): $(awk '{printf "%s/%s  ", $1, $2}' "$OUT/$name.t.$t")"
	done

	# open files, from an strace of one extra (untimed) run each
	read -r rw_fds rw_runfds <<<"$(fd_peak "$OUT/$name.strace.rw" "$dir" "$RW" --report --format json "$dir")"
	read -r rg_fds rg_runfds <<<"$(fd_peak "$OUT/$name.strace.rg" "$dir" rg --no-config -j1 -c -f "$pat_rg" "${files[@]}")"

	tp() { awk -v m="$1" -v s="$2" 'BEGIN {printf "%.1f", m / s}'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }   # rankwatch MiB/s / other MiB/s
	kib2mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
	s_rw=$(cut -d' ' -f1 "$OUT/$name.t.rw" | median)
	s_rg=$(cut -d' ' -f1 "$OUT/$name.t.rg" | median)
	k_rw=$(cut -d' ' -f2 "$OUT/$name.t.rw" | maxof)
	k_rg=$(cut -d' ' -f2 "$OUT/$name.t.rg" | maxof)
	t_rw=$(tp "$mib" "$s_rw")
	t_rg=$(tp "$mib" "$s_rg")
	r_rg=$(ratio "$t_rw" "$t_rg")
	rows+=("$name|rankwatch --report|$s_rw|$t_rw|-|$(kib2mib "$k_rw")|$target_rss|$rw_runfds ($rw_fds fds)")
	rows+=("$name|rg -j1 ($nkeep pat)|$s_rg|$t_rg|$r_rg|$(kib2mib "$k_rg")|-|$rg_runfds ($rg_fds fds)")
	if [ -f "$OUT/$name.t.rgp" ]; then
		s_rgp=$(cut -d' ' -f1 "$OUT/$name.t.rgp" | median)
		k_rgp=$(cut -d' ' -f2 "$OUT/$name.t.rgp" | maxof)
		t_rgp=$(tp "$smib" "$s_rgp")
		r_rgp=$(ratio "$t_rw" "$t_rgp")
		rows+=("$name|rg -j1 -P ($npat pat, $smib MiB)*|$s_rgp|$t_rgp|$r_rgp|$(kib2mib "$k_rgp")|-|-")
		pcre_note="* rg -P: one run on the first files of the run, adding up to the MiB shown; seconds are for that sample, MiB/s are comparable"
	fi

	# the same ratio round by round (each rankwatch run against the rg run
	# right after it), which a slow spell of the machine affects less
	paired=$(paste -d' ' "$OUT/$name.t.rw" "$OUT/$name.t.rg" |
		awk '{print $3 / $1}' | sort -g | awk '{v[NR]=$1} END {printf "%.2f (rounds %.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}')
	want=1.0; [ "$ranks" -ge 4096 ] && want=0.9
	ok() { awk -v a="$1" -v b="$2" 'BEGIN {print (a + 0 >= b + 0) ? "meets" : "MISSES"}'; }
	checks+=("$name: throughput rankwatch/rg    = ${r_rg}x  (target >= ${want}x)  $(ok "$r_rg" "$want")")
	checks+=("$name:   per round, median of rg s / rankwatch s = $paired")
	[ -f "$OUT/$name.t.rgp" ] && checks+=("$name: throughput rankwatch/rg -P = ${r_rgp}x  (for reference; rg -P sample)")
	checks+=("$name: peak RSS $(kib2mib "$k_rw") MiB  (target < $target_rss MiB)  $(awk -v a="$k_rw" -v b="$target_rss" 'BEGIN {print (a / 1024 < b) ? "meets" : "MISSES"}')")
	checks+=("$name: log files open at once $rw_runfds (all fds $rw_fds) of $ranks")
done

# ---------------------------------------------------------------- table
echo
echo "== results (median of $REPEAT warm runs; peak RSS = max over the runs; ratio = rankwatch MiB/s / that tool's MiB/s)"
{
	echo "run|tool|seconds|MiB/s|ratio rw/rg|peak RSS MiB|RSS target MiB|open files (max)"
	printf '%s\n' "${rows[@]}"
} | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
	END {
		for (r = 1; r <= n; r++) {
			line = ""
			for (i = 1; i <= nf; i++) line = line sprintf(i <= 2 ? "%-*s  " : "%*s  ", w[i], c[r, i])
			print "  " line
			if (r == 1) { s = ""; for (i = 1; i <= nf; i++) s = s sprintf("%s  ", substr("--------------------------------------------------", 1, w[i])); print "  " s }
		}
	}'
[ -n "$pcre_note" ] && echo "  $pcre_note"
echo
echo "== targets (reference: rg -j1, Rust regex engine)"
printf '  %s\n' "${checks[@]}"
printf '\n  load avg %s (at end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
