#!/bin/sh
# The report is the same for any number of reading threads (-j): every
# bundled sample in every format, and generated runs of many files (large
# and small, 1 KiB to 256 KiB per rank), with N = 1, 2 and 7; and -j takes
# only a number of threads.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

same_for_all_n() {	# same_for_all_n NAME FORMAT PATH...
	name=$1 fmt=$2; shift 2
	for n in 1 2 7; do
		"$RW" -j "$n" --report --format "$fmt" "$@" > "$TMP/j$n.out" 2> "$TMP/j$n.err"
		echo $? > "$TMP/j$n.rc"
	done
	check "$name ($fmt): -j 2 reports what -j 1 does" cmp -s "$TMP/j1.out" "$TMP/j2.out"
	check "$name ($fmt): -j 7 reports what -j 1 does" cmp -s "$TMP/j1.out" "$TMP/j7.out"
	check "$name ($fmt): the same exit status and notes" sh -c \
	    "cmp -s '$TMP/j1.rc' '$TMP/j2.rc' && cmp -s '$TMP/j1.rc' '$TMP/j7.rc' &&
	     cmp -s '$TMP/j1.err' '$TMP/j2.err' && cmp -s '$TMP/j1.err' '$TMP/j7.err'"
}

cd "$top_srcdir/samples" || exit 1
for truth in *.truth; do
	name=${truth%.truth}
	same_for_all_n "$name" json "$name"
	same_for_all_n "$name" text "$name"
done
same_for_all_n "oom-collateral" markdown oom-collateral

# generated runs: 600 ranks of 16 KiB, 40 of 256 KiB (several batches a
# file), 3000 of 1 KiB (more files than threads can hold at once)
gen() { python3 "$top_srcdir/bench/genrun.py" --jobs 1 --ranks "$1" --size "$2" "$TMP/$3" 2>/dev/null; }
for spec in 600:16KiB:g600 40:256KiB:g40 3000:1KiB:g3000; do
	IFS=: read -r ranks size dir <<-EOS
	$spec
	EOS
	if gen "$ranks" "$size" "$dir"; then
		same_for_all_n "generated $ranks x $size" json "$TMP/$dir"
		check "generated $ranks x $size: a failure is found" grep -q '"verdict": "failure"' "$TMP/j1.out"
	else
		not_ok "generated $ranks x $size: bench/genrun.py failed"
	fi
done

# -j takes a number of threads, and says so otherwise
for bad in 0 -3 x 2x 99999; do
	"$RW" -j "$bad" --report oom-collateral > "$TMP/bad.out" 2> "$TMP/bad.err"
	rc=$?
	check "-j $bad: refused with exit 2" [ "$rc" -eq 2 ]
	check "-j $bad: one line naming --jobs, then the hint" sh -c \
	    "grep -q -- '--jobs takes a number of threads' '$TMP/bad.err' && grep -q \"Try 'rankwatch --help'\" '$TMP/bad.err'"
done
finish
