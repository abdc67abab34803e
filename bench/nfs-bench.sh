#!/usr/bin/env bash
# nfs-bench.sh: how does the time of `rankwatch --report` on a many-file run
# grow when every open and read of a log file waits on the network, as on
# the NFS or Lustre mount of a login node?  And ripgrep's, under the same
# delay, with the same patterns?
#
# Usage:  bench/nfs-bench.sh            (from anywhere; see bench/README.md)
#
# An LD_PRELOAD shim (bench/delayfs.c, built here with cc into the out dir)
# sleeps NFS_DELAY_US before each open of a file under the run's folder and
# before each read of such a file, on the calling thread: readers that work
# in parallel overlap their waits.  Each tool is timed without the shim
# (native), with the shim and no delay (its own cost), and with the delay;
# the shim counts the opens and reads it delayed, and one untimed strace run
# per tool checks that those are all the opens and reads of the run's files
# the tool made (none hidden in mmap, raw syscalls or glibc internals).
#
# Environment:
#   BENCH_OUT=DIR      where the run lives (default bench/out; reused while
#                      genrun.py and the parameters are unchanged)
#   NFS_RANKS=N        files in the run (default 16384)
#   NFS_SIZE=S         bytes per file (default 16KiB)
#   NFS_DELAY_US=N     the delay per open and per read (default 1000)
#   NFS_STRACE=0       skip the strace check
#   BENCH_REPEAT=N     timed repetitions per tool and delay (default 3; median)
#   RANKWATCH=PATH     binary to measure (default ./rankwatch of this tree)
#
# With the defaults the delayed runs take about 28 s (rankwatch), 57 s
# (rankwatch -j1), 37 s (rg) and 75 s (rg -j1) each, mostly asleep: about
# 3.5 minutes per repetition on 2 cores.  Warm page cache: only the added delay is
# "network".  A benchmark, not a test: it exits 0 unless a tool fails to run
# or the strace check finds calls the shim did not see (exit 1).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
OUT=${BENCH_OUT:-$here/out}
RW=${RANKWATCH:-$top/rankwatch}
REPEAT=${BENCH_REPEAT:-3}
RANKS=${NFS_RANKS:-16384}
SIZE=${NFS_SIZE:-16KiB}
DELAY=${NFS_DELAY_US:-1000}
STRACE=${NFS_STRACE:-1}
TIME=/usr/bin/time
BENCH_NAME=nfs-bench
. "$here/lib.sh"
command -v cc >/dev/null || die "a C compiler (cc) is needed for the shim"

# ---------------------------------------------------------------- the shim
so=$OUT/delayfs.so
cc -O2 -Wall -Wextra -shared -fPIC -o "$so" "$here/delayfs.c" -ldl 2>"$OUT/delayfs.cc.err" ||
	die "the shim does not build: $(head -5 "$OUT/delayfs.cc.err")"
[ -s "$OUT/delayfs.cc.err" ] && die "the shim builds with warnings: $(head -5 "$OUT/delayfs.cc.err")"
printf '  delay shim   %s (from bench/delayfs.c, cc -O2 -Wall -Wextra, no warnings)\n' "$so"

# ---------------------------------------------------------------- the run
name=nfs${RANKS}x$SIZE
dir=$OUT/$name
echo
echo "== run $name: $RANKS ranks x $SIZE"
gen_run "$dir" "$RANKS" "$SIZE"
bytes=$(find "$dir" -name 'rank*.log' -printf '%s\n' | awk '{s += $1} END {print s}')
find "$dir" -name 'rank*.log' -print0 | xargs -0 cat > /dev/null	# warm
find "$dir" -name 'rank*.log' -print0 | xargs -0 cat > /dev/null
echo "  $RANKS files, $bytes bytes ($(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}') MiB), warm (read twice before timing)"
set +e
"$RW" --report --format json "$dir" > "$OUT/$name.json" 2>"$OUT/$name.err"; rc=$?
set -e
[ $rc -le 1 ] || die "rankwatch failed on $dir (exit $rc): $(head -3 "$OUT/$name.err")"
python3 - "$OUT/$name.json" "$((RANKS * 5 / 13))" <<-'EOF' | sed 's/^/  /'
	import json, sys
	d = json.load(open(sys.argv[1]))
	ini = d.get("initiating") or {}
	print("rankwatch: verdict %s, initiating rank %s (generated failing rank %s), %s ranks"
	      % (d.get("verdict"), ini.get("rank"), sys.argv[2], d.get("run", {}).get("ranks")))
EOF
echo "  rg: $("${rg_dir[@]}" -c -f "$pat_rg" "$dir" | wc -l) of $RANKS files have a match (--no-ignore)"

# ---------------------------------------------------------------- the tools
tools=(rw rg rg1)
declare -A label=([rw]="rankwatch" [rw1]="rankwatch -j1" [rg]="rg" [rg1]="rg -j1")
if "$RW" --help 2>&1 | grep -qE '(^|[[:space:],])(-j[[:space:],N]|--jobs)'; then
	tools=(rw rw1 rg rg1)
	label[rw]="rankwatch (default -j)"
	echo "  rankwatch --help lists -j: timing rankwatch -j1 and its default"
else
	echo "  rankwatch --help lists no -j option: rankwatch is timed as it is"
fi

# run_tool TOOL PREFIX...: run TOOL's command after the PREFIX words
run_tool() {
	local t=$1; shift
	case $t in
	rw)  "$@" "$RW" --report --format json "$dir" ;;
	rw1) "$@" "$RW" -j1 --report --format json "$dir" ;;
	rg)  "$@" "${rg_dir[@]}" -c -f "$pat_rg" "$dir" ;;
	rg1) "$@" "${rg_dir[@]}" -j1 -c -f "$pat_rg" "$dir" ;;
	esac
}
shim() {	# shim US STATSFILE: the words that put the shim under a command
	echo env "LD_PRELOAD=$so" "DELAYFS_PREFIX=$dir" "DELAYFS_US=$1" "DELAYFS_STATS_FILE=$2"
}
# shimval FILE FIELD: FIELD's value on the last line of a shim stats file
shimval() { awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) v = $(i + 1)} END {print v}' "$1"; }

# ---------------------------------------------------------------- strace check
declare -A st_threads st_meta
bad=0
if [ "$STRACE" != 0 ]; then
	echo
	echo "== do the shim's counts cover every open and read of the run's files? (strace -f, shim at 0 us, untimed)"
	for t in "${tools[@]}"; do
		sf=$OUT/$name.strace.$t.stats
		rm -f "$sf"
		# shellcheck disable=SC2046
		run_tool "$t" strace -f -qq -o "$OUT/$name.strace.$t" \
			-e trace=open,openat,openat2,creat,close,close_range,dup,dup2,dup3,fcntl,read,pread64,readv,preadv,preadv2,mmap,stat,lstat,newfstatat,statx,fstat \
			$(shim 0 "$sf") >/dev/null 2>&1 || true
		io=$(python3 "$here/benchtools.py" iocount "$OUT/$name.strace.$t" "$dir")
		eval "$io"	# opens reads mmaps meta diropens threads
		s_open=$(shimval "$sf" opens) s_read=$(($(shimval "$sf" reads) + $(shimval "$sf" preads) + $(shimval "$sf" readvs)))
		s_mmap=$(shimval "$sf" mmaps)
		st_threads[$t]=$threads st_meta[$t]=$meta
		verdict="every call seen"
		if [ "$opens" != "$s_open" ] || [ "$reads" != "$s_read" ] || [ "$mmaps" != 0 ] || [ "$s_mmap" != 0 ]; then
			verdict="MISSED CALLS"
			bad=1
		fi
		printf '  %-14s strace: %6s opens %6s reads %s mmaps  |  shim: %6s opens %6s reads %s mmaps  |  %s\n' \
			"${label[$t]}" "$opens" "$reads" "$mmaps" "$s_open" "$s_read" "$s_mmap" "$verdict"
		printf '  %-14s        threads that opened or read them: %s; %s stat calls on them (not delayed), %s opendir of the folder (not delayed)\n' \
			"" "$threads" "$meta" "$diropens"
		rm -f "$OUT/$name.strace.$t"
	done
fi

# ---------------------------------------------------------------- timings
echo
echo "== timings: $REPEAT rounds of native, shim at 0 us and shim at $DELAY us per tool"
printf '  load avg %s before timing\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
modes=(native 0 "$DELAY")
for t in "${tools[@]}"; do for m in "${modes[@]}"; do rm -f "$OUT/$name.t.$t.$m" "$OUT/$name.s.$t.$m"; done; done
for ((i = 1; i <= REPEAT; i++)); do
	for m in "${modes[@]}"; do
		for t in "${tools[@]}"; do
			if [ "$m" = native ]; then
				run_tool "$t" run_timed "$OUT/$name.t.$t.$m"
			else
				# shellcheck disable=SC2046
				run_tool "$t" run_timed "$OUT/$name.t.$t.$m" $(shim "$m" "$OUT/$name.s.$t.$m")
			fi
		done
	done
	printf '  round %d done, load avg %s\n' "$i" "$(cut -d' ' -f1-3 /proc/loadavg)"
done

echo
for t in "${tools[@]}"; do
	for m in "${modes[@]}"; do
		case $m in native) ml="native" ;; *) ml="shim $m us" ;; esac
		printf '  raw %-14s %-14s s: %s\n' "${label[$t]}" "$ml" "$(cut -d' ' -f1 "$OUT/$name.t.$t.$m" | tr '\n' ' ')"
	done
done
for t in "${tools[@]}"; do
	sf=$OUT/$name.s.$t.$DELAY
	if [ "$(awk '{$1 = $2 = $3 = ""; print}' "$sf" | sed 's/ slept_s .*//' | sort -u | wc -l)" -ne 1 ]; then
		echo "  note: ${label[$t]}'s call counts differ between repetitions:"
		sed 's/^/    /' "$sf"
	fi
done

med() { cut -d' ' -f1 "$OUT/$name.t.$1.$2" | median; }
rows=()
for t in "${tools[@]}"; do
	sf=$OUT/$name.s.$t.$DELAY
	n_open=$(shimval "$sf" opens) n_read=$(($(shimval "$sf" reads) + $(shimval "$sf" preads) + $(shimval "$sf" readvs)))
	waits=$(shimval "$sf" waits)
	slept=$(awk '{print $NF}' "$sf" | median)
	s0=$(med "$t" native) s1=$(med "$t" 0) sd=$(med "$t" "$DELAY")
	r0=$(med rg native) rd=$(med rg "$DELAY")
	rows+=("${label[$t]}|${st_threads[$t]:-?}|$n_open|$n_read|$waits|${st_meta[$t]:-?}|$s0|$s1|$sd|$(awk -v a="$sd" -v b="$s0" 'BEGIN {printf "%.1f", a / b}')|$(awk -v a="$sd" -v b="$s0" 'BEGIN {printf "%.1f", a - b}')|$slept|$(awk -v a="$slept" -v w="$waits" 'BEGIN {printf "%.0f", a * 1e6 / w}')|$(awk -v a="$sd" -v s="$slept" 'BEGIN {printf "%.2f", s / a}')|$(awk -v a="$r0" -v b="$s0" 'BEGIN {printf "%.2f", a / b}')|$(awk -v a="$rd" -v b="$sd" 'BEGIN {printf "%.2f", a / b}')")
done

echo
echo "== $RANKS files x $SIZE, every open and read of them delayed $DELAY us (median of $REPEAT warm runs)"
{
	echo "tool|threads|opens|reads|waits|stats|native s|shim 0us s|${DELAY}us s|growth|added s|slept s|us/wait|overlap|rg/tool native|rg/tool ${DELAY}us"
	printf '%s\n' "${rows[@]}"
} | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
	END {
		for (r = 1; r <= n; r++) {
			line = sprintf("%-*s  ", w[1], c[r, 1])
			for (i = 2; i <= nf; i++) line = line sprintf("%*s  ", w[i], c[r, i])
			print "  " line
		}
	}'
cat <<EOF
  threads: how many threads opened or read the run's files (strace); opens, reads: the calls the
  shim delayed in one run (reads: read, pread and readv calls, the one that returns 0 at the end
  of a file included); waits = opens + reads; stats: stat-family calls on the run's files (strace;
  not delayed, see bench/README.md); growth = ${DELAY}us s / native s; added s = ${DELAY}us s - native s;
  slept s: the delays summed over threads (median); us/wait: what one delay really took (the
  asked ${DELAY} us plus wake-up latency); overlap = slept s / ${DELAY}us s (how many waits were in flight
  at once, on average); rg/tool above 1: that tool is faster than rg (rg uses every core here, $(nproc)).
EOF
printf '\n  load avg %s (at end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$bad" -ne 0 ]; then
	echo "nfs-bench: the shim missed opens or reads of the run's files that strace saw (see above): the delayed figures understate that tool's waits" >&2
	exit 1
fi
