#!/bin/sh
# build.sh: the libFuzzer targets, for make fuzz (which passes the
# variables below; run by hand it finds them itself).
#   top_srcdir, top_builddir   the source tree and the build tree (config.h)
#   CORE_SOURCES               core/*.c, relative to top_srcdir
#   PCRE2_CFLAGS PCRE2_LIBS YAML_CFLAGS YAML_LIBS LIBS
#   FUZZ_CC                    clang (default)
#   FUZZ_CFLAGS                more flags (-O2, -fsanitize=memory ...)
# The core is compiled once with coverage and ASan/UBSan into
# tests/fuzz/obj/, then each target is linked with libFuzzer as
# tests/fuzz/fuzz_<target>. Without clang it says so and does nothing.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${FUZZ_CC:=clang}"
: "${FUZZ_CFLAGS:=}"
: "${LIBS:=-lm -lpthread}"
: "${PCRE2_CFLAGS=$(pkg-config --cflags libpcre2-8 2>/dev/null || :)}"
: "${PCRE2_LIBS=$(pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)}"
: "${YAML_CFLAGS=$(pkg-config --cflags yaml-0.1 2>/dev/null || :)}"
: "${YAML_LIBS=$(pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml) -ljansson}"
if [ -z "${CORE_SOURCES:-}" ]; then
	CORE_SOURCES=$(cd "$top_srcdir" && ls core/*.c)
fi
: "${TARGETS:=$(cat "$top_srcdir/tests/fuzz/targets")}"

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
	echo "make fuzz: $FUZZ_CC is not installed; no fuzz targets built" \
	    "(make check still replays the corpus)"
	exit 0
fi
if [ ! -f "$top_builddir/config.h" ]; then
	echo "make fuzz: no config.h in $top_builddir: run configure first" >&2
	exit 1
fi

out="$top_builddir/tests/fuzz"
obj="$out/obj"
mkdir -p "$obj"

base="-g -O1 -fno-omit-frame-pointer -std=c11 -DTEST_SRCDIR=\"$top_srcdir\""
inc="-I$top_builddir -I$top_srcdir/core $PCRE2_CFLAGS $YAML_CFLAGS"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"

# Does this clang have libFuzzer at all (Apple's has not)?
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; return n == 7; }' \
    > "$obj/probe.c"
if ! $FUZZ_CC $san -fsanitize=fuzzer "$obj/probe.c" -o "$obj/probe" >/dev/null 2>&1; then
	echo "make fuzz: $FUZZ_CC cannot link -fsanitize=fuzzer (no libFuzzer?)" >&2
	rm -f "$obj/probe.c" "$obj/probe"
	exit 1
fi
# No coverage feedback for the tuning arithmetic (coverage-ignore.txt),
# when this clang knows the option (13 and later; 12 called it blocklist).
ign=""
for opt in -fsanitize-coverage-ignorelist -fsanitize-coverage-blocklist; do
	if $FUZZ_CC $san -fsanitize=fuzzer-no-link "$opt=$top_srcdir/tests/fuzz/coverage-ignore.txt" \
	    -c "$obj/probe.c" -o "$obj/probe.o" >/dev/null 2>&1; then
		ign="$opt=$top_srcdir/tests/fuzz/coverage-ignore.txt"
		break
	fi
done
rm -f "$obj/probe.c" "$obj/probe.o" "$obj/probe"
echo "make fuzz: $FUZZ_CC $san -fsanitize=fuzzer${ign:+ $ign} $FUZZ_CFLAGS"

objs=""
for src in $CORE_SOURCES; do
	o="$obj/$(basename "$src" .c).o"
	echo "  FUZZCC   $src"
	# shellcheck disable=SC2086
	$FUZZ_CC $base $san -fsanitize=fuzzer-no-link $ign $inc $FUZZ_CFLAGS \
	    -c "$top_srcdir/$src" -o "$o"
	objs="$objs $o"
done
for t in $TARGETS; do
	echo "  FUZZLD   tests/fuzz/fuzz_$t"
	# shellcheck disable=SC2086
	$FUZZ_CC $base $san -fsanitize=fuzzer $inc $FUZZ_CFLAGS \
	    "$top_srcdir/tests/fuzz/fuzz_$t.c" $objs $PCRE2_LIBS $YAML_LIBS $LIBS \
	    -o "$out/fuzz_$t"
done
echo "make fuzz: built tests/fuzz/fuzz_{$(echo $TARGETS | tr ' ' ',')}; run them with"
echo "  make fuzz-run FUZZ_TIME=60   (on copies of the corpora, tests/fuzz/run.sh)"
