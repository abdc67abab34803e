#!/bin/sh
# Every bundled sample: its report matches the golden JSON, and the
# ground truth the generator wrote (verdict, initiating rank, first
# suspect, first entry) independently of the golden file.
#   tests/samples.sh --update   rewrites the golden files
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

update=0
[ "${1:-}" = "--update" ] && update=1
cd "$top_srcdir/samples" || exit 1
for truth in *.truth; do
	name=${truth%.truth}
	golden="$top_srcdir/tests/golden/$name.json"
	"$RW" --report --format json "$name" > "$TMP/$name.json" 2>"$TMP/$name.err"
	rc=$?
	if [ "$update" = 1 ]; then
		mkdir -p "$top_srcdir/tests/golden"
		cp "$TMP/$name.json" "$golden"
	fi
	want_verdict=$(sed -n 's/^verdict: //p' "$truth")
	want_rc=1; [ "$want_verdict" = healthy ] && want_rc=0
	check "$name: exit status $want_rc" [ "$rc" -eq "$want_rc" ]
	check "$name: report matches tests/golden/$name.json" diff -u "$golden" "$TMP/$name.json"
	check "$name: matches its ground truth" python3 - "$TMP/$name.json" "$truth" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = dict(l.split(": ", 1) for l in open(sys.argv[2]).read().splitlines())
got = {
    "verdict": d["verdict"],
    "initiating": str(d["initiating"]["rank"]) if d["initiating"]["rank"] is not None else "none",
    "first_suspect": str(d["suspects"][0]["rank"]) if d["suspects"] else "none",
    "first_entry": d["diagnoses"][0]["entry"] if d["diagnoses"] else "none",
}
bad = [k for k in t if got[k] != t[k]]
for k in bad:
    print("  %s: want %s, got %s" % (k, t[k], got[k]))
sys.exit(1 if bad else 0)
PY
	for f in text markdown; do
		"$RW" --report --format $f "$name" > "$TMP/$name.$f" 2>/dev/null
		check "$name: $f report is not empty" [ -s "$TMP/$name.$f" ]
	done
done
# Counted nouns agree, and the Markdown summary quote shows no ^J.
check "oom-collateral: Markdown says 1 file, 16 ranks" \
    grep -q '^\*\*Run:\*\* 1 file (combined), 16 ranks, ' "$TMP/oom-collateral.markdown"
check "... and no ^J anywhere" sh -c '! grep -q "\^J" "$1"' _ "$TMP/oom-collateral.markdown"
# Standard input is a run too.
"$RW" --report --format json - < oom-collateral/slurm-90211.out > "$TMP/stdin.json" 2>/dev/null
check "stdin: the combined log read from - gives rank 11" grep -q '"initiating": {"rank": 11' "$TMP/stdin.json"
finish
