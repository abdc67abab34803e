#!/bin/sh
# Replays every fuzz corpus through its target built without libFuzzer
# (tests/fuzz/replay_<target>: the target and replay.c's main), so an input
# that once crashed a parser, or tripped one of the targets' checks, keeps
# being run on every machine, with or without clang.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib.sh"

# the rules the pipeline targets load, whatever the build's source path
RW_RULES="$top_srcdir/rules"
export RW_RULES

for t in $(cat "$top_srcdir/tests/fuzz/targets"); do
	bin="$top_builddir/tests/fuzz/replay_$t"
	corpus="$top_srcdir/tests/fuzz/corpus/fuzz_$t"
	if [ ! -x "$bin" ]; then
		not_ok "fuzz_$t: $bin was not built"
		continue
	fi
	out=$("$bin" "$corpus" 2>&1); rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "fuzz_$t: $out"
	else
		echo "$out" | tail -20
		not_ok "fuzz_$t: corpus replay failed (exit $rc)"
	fi
done
finish
