#!/bin/sh
# The manual pages cannot drift from the program. mandoc has nothing to
# say about either page; rankwatch(1) documents exactly the options that
# rankwatch --help shows, and its KEYS section exactly the keys of the
# console's key table (tui/keys.h, as tests/keytable prints it, built
# without curses), one item per entry; the example entry of
# rankwatch-rules(5) passes --check-rules and uses exactly the keys the
# page lists. Each comparison is also run on a copy of the page with an
# option or a key taken out, or one added, and must catch it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

export LC_ALL=C	# one sort order for comm
page1="$top_builddir/rankwatch.1"	# make writes it from doc/rankwatch.1.in
page5="$top_srcdir/doc/rankwatch-rules.5"
keytable="$top_builddir/tests/keytable"
if ! command -v mandoc >/dev/null 2>&1; then
	echo "mandoc is not installed (./bootstrap installs it)"
	exit 1
fi
for f in "$page1" "$keytable"; do
	if [ ! -e "$f" ]; then
		echo "$f is not built (make check builds it)"
		exit 1
	fi
done

# --- mandoc -----------------------------------------------------------------
# -Wwarning: nothing at all. -Wstyle: nothing but what depends on the
# other pages this machine has (a page of SEE ALSO not installed).
for p in "$page1" "$page5"; do
	n=$(basename "$p")
	mandoc -Tlint -Wwarning "$p" > "$TMP/lint" 2>&1; rc=$?
	sed 's/^/  /' "$TMP/lint"
	check "mandoc -Tlint -Wwarning $n: nothing to say" \
	    sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ]' _ "$rc" "$TMP/lint"
	mandoc -Tlint -Wstyle "$p" > "$TMP/lint" 2>&1; rc=$?
	grep -v -e 'referenced manual not found' -e 'mandoc\.db' "$TMP/lint" > "$TMP/lint.style"
	sed 's/^/  /' "$TMP/lint.style"
	check "mandoc -Tlint -Wstyle $n: no style message (but pages not installed here)" \
	    sh -c '[ "$1" -le 1 ] && [ ! -s "$2" ]' _ "$rc" "$TMP/lint.style"
done
check "rankwatch.1 names the configured data folder (no @pkgdatadir@ left)" \
    sh -c '! grep -q "@pkgdatadir@" "$1" && grep -q "^\.It Pa /.*/rankwatch/$" "$1"' _ "$page1"

# --- options ----------------------------------------------------------------
# The words of the help that are options: --long, or -x.
"$RW" --help > "$TMP/help" 2>&1
awk '{ n = split($0, w, /[^A-Za-z0-9-]+/)
	for (i = 1; i <= n; i++)
		if (w[i] ~ /^--[A-Za-z][A-Za-z0-9-]*$/ || w[i] ~ /^-[A-Za-z]$/)
			print w[i] }' "$TMP/help" | sort -u > "$TMP/help.opts"
check "--help shows its options (more than 10)" [ "$(wc -l < "$TMP/help.opts")" -gt 10 ]

# mdoc's escapes in a macro's argument
unescape() { sed -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g'; }

# option_problems PAGE: what differs between --help and PAGE, a line each.
# The page's option list is the ".It Fl x" items of DESCRIPTION (each Fl
# names one option); every Fl elsewhere must be an option of --help too.
option_problems() {
	awk '/^\.Sh / { sec = substr($0, 5) }
	    sec == "DESCRIPTION" && /^\.It / {
		for (i = 2; i < NF; i++) if ($i == "Fl") print $(i + 1) }' "$1" |
	    unescape | sed 's/^/-/' | sort -u > "$TMP/man.opts"
	awk '/^\./ { for (i = 1; i < NF; i++) if ($i == "Fl" || $i == ".Fl") print $(i + 1) }' "$1" |
	    unescape | sed 's/^/-/' | sort -u > "$TMP/man.mentions"
	comm -23 "$TMP/help.opts" "$TMP/man.opts" | sed 's/$/: in --help, not in the option list of the man page/'
	comm -13 "$TMP/help.opts" "$TMP/man.opts" | sed 's/$/: documented in the man page, but not in --help/'
	comm -13 "$TMP/man.opts" "$TMP/man.mentions" | comm -13 "$TMP/help.opts" - |
	    sed 's/$/: named in the man page, but neither in --help nor in its option list/'
}
option_problems "$page1" > "$TMP/opt.problems"
sed 's/^/  /' "$TMP/opt.problems"
check "the options of --help are those of rankwatch(1), no more and no fewer" [ ! -s "$TMP/opt.problems" ]
check "... (the page's option list is not empty)" [ "$(wc -l < "$TMP/man.opts")" -gt 10 ]

# --- keys -------------------------------------------------------------------
"$keytable" > "$TMP/table"; rc=$?
check "tests/keytable prints the key table" \
    sh -c '[ "$1" -eq 0 ] && [ "$(wc -l < "$2")" -gt 10 ]' _ "$rc" "$TMP/table"
check "tests/keytable does not link curses" sh -c '! ldd "$1" | grep -q curses' _ "$keytable"
cut -f1 "$TMP/table" | sort > "$TMP/table.items"
tr ' ' '\n' < "$TMP/table.items" | sort -u > "$TMP/table.keys"

# key_problems PAGE: what differs between the key table and the KEYS
# section of PAGE: its ".It Ic k , Ic Up" items, one per table entry.
key_problems() {
	awk '/^\.Sh / { sec = substr($0, 5) }
	    sec == "KEYS" && /^\.It / {
		s = ""
		for (i = 2; i < NF; i++) if ($i == "Ic") s = s (s == "" ? "" : " ") $(i + 1)
		print s }' "$1" | unescape | sort > "$TMP/man.items"
	tr ' ' '\n' < "$TMP/man.items" | sed '/^$/d' | sort -u > "$TMP/man.keys"
	comm -23 "$TMP/table.keys" "$TMP/man.keys" | while IFS= read -r k; do
		awk -F '\t' -v k="$k" '{ n = split($1, w, " ")
			for (i = 1; i <= n; i++) if (w[i] == k)
				printf "%s: a key of the key table (%s: %s), not in KEYS\n", k, $1, $2 }' "$TMP/table"
	done
	comm -13 "$TMP/table.keys" "$TMP/man.keys" | sed 's/$/: in KEYS, but not in the key table/'
	comm -23 "$TMP/table.items" "$TMP/man.items" | sed 's/$/: an entry of the key table with no item of its own in KEYS/'
	comm -13 "$TMP/table.items" "$TMP/man.items" | sed 's/$/: an item of KEYS that is no entry of the key table/'
}
key_problems "$page1" > "$TMP/key.problems"
sed 's/^/  /' "$TMP/key.problems"
check "the keys of the key table are those of KEYS, entry by entry" [ ! -s "$TMP/key.problems" ]

# --- the checks catch what they should --------------------------------------
# mutant NAME SED-SCRIPT: a copy of rankwatch.1, changed, that must differ
mutant() {
	sed "$2" "$page1" > "$TMP/$1.1"
	! cmp -s "$page1" "$TMP/$1.1"
}
if mutant no-errors '/^\.It Fl \\-errors$/d'; then
	option_problems "$TMP/no-errors.1" > "$TMP/p"
	check "an option taken out of the page is caught" grep -q '^--errors: in --help, not in the option list' "$TMP/p"
else
	not_ok "an option taken out of the page is caught (no .It Fl \\-errors line to take out)"
fi
mutant extra-opt '/^\.It Fl \\-errors$/i\
.It Fl \\-frobnicate\
Frobnicate.' && option_problems "$TMP/extra-opt.1" > "$TMP/p"
check "an option --help lacks, added to the page, is caught" grep -q '^--frobnicate: documented in the man page, but not in --help' "$TMP/p"
if mutant no-Q '/^\.It Ic Q$/d'; then
	key_problems "$TMP/no-Q.1" > "$TMP/p"
	check "a key taken out of KEYS is caught" grep -q '^Q: a key of the key table' "$TMP/p"
else
	not_ok "a key taken out of KEYS is caught (no .It Ic Q line to take out)"
fi
mutant extra-key 's/^\.It Ic Q$/.It Ic Q , Ic X/' && key_problems "$TMP/extra-key.1" > "$TMP/p"
check "a key the table lacks, added to KEYS, is caught" grep -q '^X: in KEYS, but not in the key table' "$TMP/p"

# --- rankwatch-rules(5): its example entry --------------------------------
mkdir -p "$TMP/rules"
sed -n '/^\.\\" example entry: begin$/,/^\.\\" example entry: end$/p' "$page5" |
    sed -e '/^\./d' | unescape > "$TMP/rules/example.yaml"
"$RW" --check-rules "$TMP/rules" > "$TMP/check.out" 2>&1; rc=$?
sed 's/^/  /' "$TMP/check.out"
check "rankwatch-rules(5)'s example entry passes --check-rules" \
    sh -c '[ "$1" -eq 0 ] && grep -q "^1 entries, " "$2" && grep -q "all rules are valid" "$2"' \
    _ "$rc" "$TMP/check.out"
# the keys the page lists for an entry are the example's top-level keys
awk '/^\.S[sh] / { sec = $0 }
    sec == ".Ss The encyclopedia text" && /^\.It Cm / { print $3 }' "$page5" | sort > "$TMP/keys.page"
sed -n 's/^\([a-z_]*\):.*/\1/p' "$TMP/rules/example.yaml" | sort > "$TMP/keys.example"
diff "$TMP/keys.page" "$TMP/keys.example" | sed -n 's/^[<>]/  &/p'
check "rankwatch-rules(5) lists the keys of its example entry, no more and no fewer" \
    sh -c '[ "$(wc -l < "$1")" -gt 15 ] && cmp -s "$1" "$2"' _ "$TMP/keys.page" "$TMP/keys.example"
finish
