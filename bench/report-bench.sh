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
#                     "r256x4M:256:4MiB r4096x256K:4096:256KiB r16384x16K:16384:16KiB"
#                     (1 GiB, 1 GiB and 256 MiB)
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
RUNS=${BENCH_RUNS:-"r256x4M:256:4MiB r4096x256K:4096:256KiB r16384x16K:16384:16KiB"}
TIME=/usr/bin/time

BENCH_NAME=report-bench
. "$here/lib.sh"

rows=()
checks=()
mapfile -t cpus < <(python3 -c 'import os; print("\n".join(map(str, sorted(os.sched_getaffinity(0)))))')
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
	if [ "$PCRE_MIB" -gt 0 ] && [ "$rgp_ok" = 1 ]; then
		for f in "${files[@]}"; do
			sample+=("$f")
			sbytes=$((sbytes + $(stat -c %s "$f")))
			[ $sbytes -ge $((PCRE_MIB * 1048576)) ] && break
		done
		smib=$(awk -v b="$sbytes" 'BEGIN {printf "%.1f", b / 1048576}')
	fi

	# timed runs, tools interleaved so that background noise hits all:
	# rankwatch with its default threads and with -j1, rg likewise, and
	# wc -l (read and split into lines, nothing else: the floor); and each
	# tool's -j1 as $(nproc) processes at once on a share of the files each,
	# which share nothing: the most the cores give on this machine now
	# (one slow core, or a neighbour's load, shows there too)
	rm -f "$OUT/$name".t.*
	for ((i = 1; i <= REPEAT; i++)); do
		run_timed "$OUT/$name.t.rw" "$RW" --report --format json "$dir"
		run_timed "$OUT/$name.t.rw1" "$RW" -j1 --report --format json "$dir"
		run_timed "$OUT/$name.t.rg" rg --no-config -c -f "$pat_rg" "${files[@]}"
		run_timed "$OUT/$name.t.rg1" rg --no-config -j1 -c -f "$pat_rg" "${files[@]}"
		run_timed "$OUT/$name.t.wc" wc -l "${files[@]}"
		run_split "$OUT/$name.t.rws" "$RW" -j1 --report --format json -- "${files[@]}"
		for c in "${cpus[@]}"; do
			run_timed "$OUT/$name.t.pin$c" taskset -c "$c" "$RW" -j1 --report --format json "$dir"
		done
		run_split "$OUT/$name.t.rgs" rg --no-config -j1 -c -f "$pat_rg" -- "${files[@]}"
	done
	[ ${#sample[@]} -gt 0 ] && run_timed "$OUT/$name.t.rgp" rg --no-config -j1 -P -c -f "$pat_rgp" "${sample[@]}"
	printf '  load avg %s after timing\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	for t in rw rw1 rg rg1 wc rws rgs $(printf 'pin%s ' "${cpus[@]}") rgp; do
		[ -f "$OUT/$name.t.$t" ] || continue
		echo "  raw $t (s/KiB): $(awk '{printf "%s/%s  ", $1, $2}' "$OUT/$name.t.$t")"
	done

	# open files, from an strace of one extra (untimed) run each
	read -r rw_fds rw_runfds <<<"$(fd_peak "$OUT/$name.strace.rw" "$dir" "$RW" -j1 --report --format json "$dir")"
	read -r rg_fds rg_runfds <<<"$(fd_peak "$OUT/$name.strace.rg" "$dir" rg --no-config -j1 -c -f "$pat_rg" "${files[@]}")"

	tp() { awk -v m="$1" -v s="$2" 'BEGIN {printf "%.1f", m / s}'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }   # rankwatch MiB/s / other MiB/s
	kib2mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
	med() { cut -d' ' -f1 "$OUT/$name.t.$1" | median; }
	s_rw=$(med rw) s_rw1=$(med rw1) s_rg=$(med rg) s_rg1=$(med rg1) s_wc=$(med wc)
	s_rws=$(med rws) s_rgs=$(med rgs)
	# the cores' speeds, round by round: -j1 pinned to each; all of them
	# kept busy with no overhead would take 1 / sum(1 / t) (median of rounds)
	s_pin=$(paste -d' ' $(printf "$OUT/$name.t.pin%s " "${cpus[@]}") |
	    awk '{r = 0; for (i = 1; i <= NF; i += 2) r += 1 / $i; print 1 / r}' | median)
	pins=$(for c in "${cpus[@]}"; do printf 'cpu%s %s s, ' "$c" "$(med "pin$c")"; done)
	k_rw=$(cut -d' ' -f2 "$OUT/$name.t.rw" | maxof)
	k_rw1=$(cut -d' ' -f2 "$OUT/$name.t.rw1" | maxof)
	k_rg=$(cut -d' ' -f2 "$OUT/$name.t.rg" | maxof)
	k_rg1=$(cut -d' ' -f2 "$OUT/$name.t.rg1" | maxof)
	t_rw=$(tp "$mib" "$s_rw") t_rw1=$(tp "$mib" "$s_rw1") t_rg=$(tp "$mib" "$s_rg")
	t_rg1=$(tp "$mib" "$s_rg1") t_wc=$(tp "$mib" "$s_wc")
	rows+=("$name|rankwatch --report (-j $(nproc))|$s_rw|$t_rw|$(ratio "$t_rw" "$t_rg") vs rg|$(kib2mib "$k_rw")|$target_rss|-")
	rows+=("$name|rankwatch -j1 --report|$s_rw1|$t_rw1|$(ratio "$t_rw1" "$t_rg1") vs rg -j1|$(kib2mib "$k_rw1")|$target_rss|$rw_runfds ($rw_fds fds)")
	rows+=("$name|rg ($nkeep pat)|$s_rg|$t_rg|-|$(kib2mib "$k_rg")|-|-")
	rows+=("$name|rg -j1 ($nkeep pat)|$s_rg1|$t_rg1|-|$(kib2mib "$k_rg1")|-|$rg_runfds ($rg_fds fds)")
	rows+=("$name|wc -l (read + split)|$s_wc|$t_wc|-|-|-|-")
	rows+=("$name|$(nproc) x rankwatch -j1, 1/$(nproc) each|$s_rws|$(tp "$mib" "$s_rws")|-|$(kib2mib "$(cut -d' ' -f2 "$OUT/$name.t.rws" | maxof)") (sum)|-|-")
	rows+=("$name|$(nproc) x rg -j1, 1/$(nproc) each|$s_rgs|$(tp "$mib" "$s_rgs")|-|$(kib2mib "$(cut -d' ' -f2 "$OUT/$name.t.rgs" | maxof)") (sum)|-|-")
	if [ -f "$OUT/$name.t.rgp" ]; then
		s_rgp=$(cut -d' ' -f1 "$OUT/$name.t.rgp" | median)
		k_rgp=$(cut -d' ' -f2 "$OUT/$name.t.rgp" | maxof)
		t_rgp=$(tp "$smib" "$s_rgp")
		rows+=("$name|rg -j1 -P ($npat pat, $smib MiB)*|$s_rgp|$t_rgp|$(ratio "$t_rw1" "$t_rgp") vs -j1|$(kib2mib "$k_rgp")|-|-")
		pcre_note="* rg -P: one run on the first files of the run, adding up to the MiB shown; seconds are for that sample, MiB/s are comparable"
	fi

	# the same ratios round by round (each rankwatch run against the rg
	# run of the same round), which a slow spell of the machine affects less
	paired() {
		paste -d' ' "$OUT/$name.t.$1" "$OUT/$name.t.$2" |
		    awk '{print $3 / $1}' | sort -g | awk '{v[NR]=$1} END {printf "%.2f (rounds %.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'
	}
	ok() { awk -v a="$1" -v b="$2" 'BEGIN {print (a + 0 >= b + 0) ? "meets" : "MISSES"}'; }
	r_all=$(ratio "$t_rw" "$t_rg") r_one=$(ratio "$t_rw1" "$t_rg1") r_scale=$(ratio "$t_rw" "$t_rw1")
	checks+=("$name: rankwatch / rg (both on every core)  = ${r_all}x  (target >= 1.5x)  $(ok "$r_all" 1.5);  per round $(paired rw rg)")
	checks+=("$name: rankwatch -j1 / rg -j1                = ${r_one}x  (target >= 2.0x)  $(ok "$r_one" 2.0);  per round $(paired rw1 rg1)")
	checks+=("$name: rankwatch / rankwatch -j1 ($(nproc) cores)    = ${r_scale}x  (target >= 1.8x on the 1 GiB runs)  $(ok "$r_scale" 1.8);  per round $(paired rw rw1)")
	checks+=("$name:   the cores now: -j1 pinned to each (${pins%, }); all kept busy, no overhead: $(ratio "$s_rw1" "$s_pin")x of -j1; rankwatch's threads reach $(ratio "$s_pin" "$s_rw") of that")
	# the CPU time the threads used against one thread's: 1.00, they did
	# no more work than one; above it, the work grew (contention for the
	# caches and memory of a busy host, or the threads' own overhead)
	c_rw=$(median < "$OUT/$name.t.rw.cpu") c_rw1=$(median < "$OUT/$name.t.rw1.cpu")
	checks+=("$name:   CPU time (user + system) -j $(nproc) / -j1 = $(ratio "$c_rw" "$c_rw1") (${c_rw} s / ${c_rw1} s; 1.00: the threads did no more work than one thread)")
	checks+=("$name:   $(nproc) processes sharing nothing (-j1 each on 1/$(nproc) of the files, no balancing) / one: rankwatch $(ratio "$s_rw1" "$s_rws")x, rg $(ratio "$s_rg1" "$s_rgs")x")
	checks+=("$name: rankwatch -j1 at $t_rw1 MiB/s is $(ratio "$t_wc" "$t_rw1")x from the floor (wc -l: $t_wc MiB/s; the machine's line-splitting floor is >5 GiB/s a core)")
	checks+=("$name: peak RSS $(kib2mib "$k_rw") MiB, -j1 $(kib2mib "$k_rw1") MiB  (target < $target_rss MiB = 64 + 2% of the logs)  $(awk -v a="$k_rw" -v b="$target_rss" 'BEGIN {print (a / 1024 < b) ? "meets" : "MISSES"}')")
	checks+=("$name: log files open at once $rw_runfds (all fds $rw_fds) of $ranks, with -j1")
done

# ---------------------------------------------------------------- table
echo
echo "== results (median of $REPEAT warm runs; peak RSS = max over the runs; ratio = rankwatch MiB/s / that tool's MiB/s)"
{
	echo "run|tool|seconds|MiB/s|ratio (MiB/s)|peak RSS MiB|RSS target MiB|open files (max)"
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
echo "== targets (reference: rg as users run it, and rg -j1; Rust regex engine)"
printf '  %s\n' "${checks[@]}"
printf '\n  load avg %s (at end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
