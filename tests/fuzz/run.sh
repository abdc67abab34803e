#!/bin/sh
# run.sh [SECONDS [TARGET...]]: run the fuzz targets make fuzz built, each
# for SECONDS (default 60; make fuzz-run FUZZ_TIME=N runs this), or with
# FUZZ_RUNS=N set, for N executions each (then SECONDS is an upper bound,
# 0 for none: make fuzz-run FUZZ_RUNS=10000000 FUZZ_TIME=0); FUZZ_FLAGS are
# more libFuzzer options (-max_len=256), on a copy
# of its corpus in tests/fuzz/work/<target>: libFuzzer adds the inputs it
# finds to the first folder it is given, and the tree's corpus stays as it
# is. Crashes, leaks and timeouts are saved in tests/fuzz/findings/<target>/;
# add a reduced one to tests/fuzz/corpus/fuzz_<target>/ once it is fixed.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
if [ -z "${top_builddir:-}" ]; then	# a build tree here, else the source tree
	if [ -x "$PWD/tests/fuzz/fuzz_line" ]; then top_builddir=$PWD; else top_builddir=$top_srcdir; fi
fi
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-$(cat "$top_srcdir/tests/fuzz/targets")}
out="$top_builddir/tests/fuzz"
RW_RULES="$top_srcdir/rules"
export RW_RULES
status=0
for t in $targets; do
	bin="$out/fuzz_$t"
	if [ ! -x "$bin" ]; then
		echo "$bin: not built (make fuzz)" >&2
		status=1
		continue
	fi
	work="$out/work/$t"
	finds="$out/findings/$t"
	mkdir -p "$work" "$finds"
	cp "$top_srcdir/tests/fuzz/corpus/fuzz_$t/"* "$work/"
	dict=""
	[ -f "$top_srcdir/tests/fuzz/fuzz_$t.dict" ] && dict="-dict=$top_srcdir/tests/fuzz/fuzz_$t.dict"
	if [ -n "${FUZZ_RUNS:-}" ]; then
		limit="-runs=$FUZZ_RUNS"
		echo "== fuzz_$t, $FUZZ_RUNS runs$([ "$secs" -gt 0 ] && echo ", at most $secs s")"
	else
		limit=""
		echo "== fuzz_$t, $secs s"
	fi
	# shellcheck disable=SC2086
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" $limit ${FUZZ_FLAGS:-} -rss_limit_mb=2048 -timeout=10 \
	    -print_final_stats=1 -artifact_prefix="$finds/" $dict "$work" \
	    > "$out/work/$t.log" 2>&1
	rc=$?
	grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
	    "$out/work/$t.log"
	if [ "$rc" -ne 0 ]; then
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*fuzz check failed|.*prefilter hides)' \
		    "$out/work/$t.log" | head -5
		echo "fuzz_$t: finding saved in $finds (log: $out/work/$t.log)"
		status=1
	fi
done
exit $status
