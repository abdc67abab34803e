#!/bin/sh
# An install into a real prefix finds its own data and only that: built
# outside the source tree, installed with make install, run from there.
# The installed binary reads the prefix's rules (not the checkout's),
# says so when they are missing or fewer than shipped, and --demo finds
# its samples. The bash completion is installed under the prefix, where
# bash-completion looks, and completes from the installed data. Both
# manual pages are installed, rankwatch(1) naming the prefix's data
# folder, and render. A DESTDIR staging install works and uninstalls
# clean.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

prefix="$TMP/prefix"
build="$TMP/build"
# builds of their own, not sub-makes of the make running this test
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$build"
# the distributed sources (what a tarball holds), configured afresh
if ! make -s -C "$top_builddir" distdir distdir="$TMP/src" >"$TMP/distdir.log" 2>&1; then
	tail -n 20 "$TMP/distdir.log"
	not_ok "make distdir"
	finish
	exit 1
fi
if ! (cd "$build" && "$TMP/src/configure" -q --prefix="$prefix" >"$TMP/configure.log" 2>&1 &&
    make -j2 >"$TMP/make.log" 2>&1 && make install >"$TMP/install.log" 2>&1); then
	for f in configure make install; do tail -n 20 "$TMP/$f.log"; done
	not_ok "configure, make and make install into $prefix"
	finish
	exit 1
fi
ok "configure --prefix, make, make install"
check "the build prints no warning" sh -c '! grep -i "warning" "$1"' _ "$TMP/make.log"
# configured inside the source tree, where core/ is a folder: autoconf's
# clean-ups after each test must not try to remove it as a core dump
(cd "$TMP/src" && ./configure -q >/dev/null 2>"$TMP/configure-in-tree.err")
cat "$TMP/configure-in-tree.err"
check "configure in the source tree prints nothing on stderr" [ ! -s "$TMP/configure-in-tree.err" ]
check "... and leaves no conftest or confdefs.h behind" sh -c '! ls "$1"/conftest* "$1"/confdefs.h 2>/dev/null | grep -q .' _ "$TMP/src"
bin="$prefix/bin/rankwatch"
data="$prefix/share/rankwatch"
check "the binary is installed" [ -x "$bin" ]
check "the rules are installed" [ "$(ls "$data/rules"/*.yaml | wc -l)" -eq "$(ls "$top_srcdir/rules"/*.yaml | wc -l)" ]
check "... and the layouts (pods and log stores)" cmp "$data/rules/layouts/kubernetes.yaml" "$top_srcdir/rules/layouts/kubernetes.yaml"
check "the themes are installed" [ -n "$(ls "$data/themes")" ]
check "the samples are installed (for --demo)" [ -d "$data/samples/oom-collateral" ]
bcdir="$prefix/share/bash-completion/completions"
check "the bash completion is installed as $bcdir/rankwatch" [ -f "$bcdir/rankwatch" ]
check "... with the installed data folder written in" grep -q "local pkgdatadir='$data'" "$bcdir/rankwatch"
man1="$prefix/share/man/man1/rankwatch.1"
man5="$prefix/share/man/man5/rankwatch-rules.5"
check "the manual pages are installed" sh -c '[ -f "$1" ] && [ -f "$2" ]' _ "$man1" "$man5"
check "... rankwatch(1) names the prefix's data folder" grep -qxF ".It Pa $data/" "$man1"
check "the Alertmanager example is installed, executable, in the documentation's examples/" \
    [ -x "$prefix/share/doc/rankwatch/examples/alertmanager.sh" ]
# rendered as man would: mandoc (./bootstrap installs it), or man -l
render() {
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tutf8 "$1"
	else
		MANWIDTH=80 man -l "$1"
	fi 2>/dev/null | col -b
}
render "$man1" > "$TMP/man1.txt"
render "$man5" > "$TMP/man5.txt"
check "... rankwatch(1) renders, with its options, keys and the data folder" \
    sh -c 'grep -q "^RANKWATCH(1)" "$1" && grep -q -- "--check-rules" "$1" &&
        grep -q "^KEYS" "$1" && grep -qF "$2/" "$1"' _ "$TMP/man1.txt" "$data"
check "... rankwatch-rules(5) renders" \
    sh -c 'grep -q "^RANKWATCH-RULES(5)" "$1" && grep -q "counterexamples" "$1"' _ "$TMP/man5.txt"

# run it from elsewhere, with no user data
export HOME="$TMP/home" XDG_DATA_HOME="$TMP/xdg-data" XDG_CONFIG_HOME="$TMP/xdg-config"
mkdir -p "$HOME"
cd "$TMP" || exit 1
"$bin" --report --format json "$data/samples/oom-collateral" > "$TMP/r.json" 2> "$TMP/r.err"; rc=$?
check "the installed binary diagnoses a sample (exit 1)" [ "$rc" -eq 1 ]
check "... with its own rules: the right entry" grep -q '"entry": "cuda-oom"' "$TMP/r.json"
check "... and says nothing of missing rules" [ ! -s "$TMP/r.err" ]
"$bin" --report --format json "$data/samples/k8s-pytorchjob-oom" > "$TMP/k.json" 2>&1
check "... and with its installed layouts, a pod's name gives its rank" \
    grep -q '"rank_from": "pod"' "$TMP/k.json"
if command -v bash >/dev/null 2>&1; then
	# the installed binary and completion: --demo= names the installed samples
	got=$(PATH="$prefix/bin:$PATH" bash --norc --noprofile -c '. "$1" &&
	    COMP_WORDS=(rankwatch --demo = oom) COMP_CWORD=3 COMP_LINE="rankwatch --demo=oom" &&
	    COMP_POINT=${#COMP_LINE} && _rankwatch rankwatch oom = && printf "%s\n" "${COMPREPLY[@]}"' _ "$bcdir/rankwatch")
	check "... it completes --demo=oom from the installed samples" [ "$got" = oom-collateral ]
fi

# without the installed rules it must not fall back on the checkout
mv "$data/rules" "$data/rules.away"
"$bin" --report "$data/samples/oom-collateral" > "$TMP/r.txt" 2> "$TMP/r.err"; rc=$?
cat "$TMP/r.err"
check "no installed rules: exit 2, not a healthy report" [ "$rc" -eq 2 ]
check "... naming where it looked" grep -q "looked in $data/rules" "$TMP/r.err"
check "... and not reading the source trees" sh -c '! grep -q "$1\|$2" "$3"' _ "$top_srcdir/rules" "$TMP/src/rules" "$TMP/r.err"
# half of them: said on stderr and in the report's notes
mkdir "$data/rules"
n=0
for f in "$data/rules.away"/*.yaml; do
	n=$((n + 1))
	[ $((n % 2)) -eq 0 ] && cp "$f" "$data/rules/"
done
"$bin" --report --format json "$data/samples/oom-collateral" > "$TMP/r.json" 2> "$TMP/r.err"; rc=$?
check "fewer rules than shipped: said at start-up" grep -q "of the $n encyclopedia entries rankwatch ships were loaded" "$TMP/r.err"
check "... and in the report's notes" grep -q "of the $n encyclopedia entries rankwatch ships" "$TMP/r.json"
rm -rf "$data/rules"
mv "$data/rules.away" "$data/rules"

# staged (DESTDIR) and uninstalled: nothing left
(cd "$build" && make install DESTDIR="$TMP/stage" >/dev/null 2>&1)
check "make install DESTDIR stages under it" sh -c '[ -x "$1" ] && [ -f "$2" ] && [ -f "$3" ]' \
    _ "$TMP/stage$prefix/bin/rankwatch" "$TMP/stage$man1" "$TMP/stage$man5"
check "... the bash completion too" [ -f "$TMP/stage$bcdir/rankwatch" ]
(cd "$build" && make uninstall >/dev/null 2>&1)
check "make uninstall removes the bash completion" [ ! -e "$bcdir/rankwatch" ]
check "make uninstall removes the manual pages" sh -c '[ ! -e "$1" ] && [ ! -e "$2" ]' _ "$man1" "$man5"
check "make uninstall leaves no file" [ "$(find "$prefix" -type f | wc -l)" -eq 0 ]
finish
