#!/bin/sh
# make check-valgrind: every unit test program, and the report of every
# bundled sample in each format, under valgrind memcheck. Any error, or
# memory lost, fails, with one exception: the machine code PCRE2's JIT
# compiler writes reads subjects 16 bytes at a time, past their end within
# the same aligned block, which memcheck reports. Such code has no symbol
# and no object file: an error whose innermost frame is "???" with no
# object is in JIT code and is only counted; any other error is ours.
# (A suppression file cannot say "no object": obj:* matches every frame.)
#   UNIT_TESTS   the test programs (make passes them)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	not_ok "valgrind is not installed (./bootstrap installs it)"
	finish
fi
vg() {
	valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
	    --track-origins=yes --num-callers=30 --log-file="$TMP/vg.%p" "$@"
}
# The errors of ours in the logs of the program run last: each error is a
# message line and then its "at" line; JIT code's is "at 0x...: ???".
ours() {
	awk '
	/^==[0-9]+== [^ ]/ { msg = $0; next }
	/^==[0-9]+==    at / {
		if (msg != "") {
			if ($0 ~ /: \?\?\?$/) jit++
			else { n++; if (n <= 3) print msg "\n" $0 }
		}
		msg = ""
		next
	}
	{ msg = "" }
	END { printf "%d %d\n", n + 0, jit + 0 > "/dev/stderr" }
	' "$TMP"/vg.* 2>"$TMP/counts"
	read -r mine jit < "$TMP/counts"
	rm -f "$TMP"/vg.*
	[ "$mine" -eq 0 ]
}

# judge WHAT RC MAXRC: after a run under memcheck, whose exit status RC
# may be up to MAXRC (a report's 1: a failure found)
judge() {
	if ours && [ "$2" -le "$3" ]; then
		ok "$1: clean under memcheck ($jit reports inside PCRE2 JIT code)"
	else
		tail -20 "$TMP/out"
		not_ok "$1: exit $2, $mine errors under memcheck"
	fi
}

for t in $UNIT_TESTS; do
	vg "$top_builddir/$t" > "$TMP/out" 2>&1
	judge "$t" $? 0
done

cd "$top_srcdir/samples" || exit 1
for truth in *.truth; do
	name=${truth%.truth}
	for f in text json markdown; do
		vg "$RW" --report --format $f "$name" > "$TMP/out" 2>&1
		judge "samples/$name --format $f" $? 1
	done
done
finish
