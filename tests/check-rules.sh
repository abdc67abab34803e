#!/bin/sh
# The shipped encyclopedia validates, examples and counterexamples included;
# a broken rule file is reported with file, line and column, and the other
# rules still load.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

out=$("$RW" --check-rules "$top_srcdir/rules" 2>&1); rc=$?
echo "$out" | tail -3
check "--check-rules passes on rules/" [ "$rc" -eq 0 ]
check "--check-rules reports all rules valid" sh -c 'echo "$1" | grep -q "all rules are valid"' _ "$out"
# a shipped signature without a literal to look for runs its regex on every
# line of every run: the prefilter must cover them all
check "every shipped signature is prefiltered" sh -c 'echo "$1" | grep -q " 0 signatures unfiltered"' _ "$out"

mkdir -p "$TMP/bad"
printf 'id: broken\ntitle: [unclosed\n' > "$TMP/bad/broken.yaml"
cat > "$TMP/bad/badregex.yaml" <<'Y'
id: badregex
title: Bad regex
category: memory
severity: low
summary: s
signatures:
  - id: x
    role: symptom
    pattern: 'unbalanced ( paren here'
    examples: ['a', 'b']
    counterexamples: ['c']
Y
cat > "$TMP/bad/wrongexample.yaml" <<'Y'
id: wrongexample
title: Wrong example
category: memory
severity: low
summary: s
signatures:
  - id: x
    role: symptom
    pattern: 'expected text here'
    examples: ['expected text here', 'something else entirely']
    counterexamples: ['nothing']
Y
out=$("$RW" --check-rules "$TMP/bad" 2>&1); rc=$?
echo "$out"
check "broken rules fail the check" [ "$rc" -eq 1 ]
check "YAML syntax error names file:line:col" sh -c 'echo "$1" | grep -Eq "broken.yaml:[0-9]+:[0-9]+: error: YAML syntax"' _ "$out"
check "bad regex names file:line:col" sh -c 'echo "$1" | grep -Eq "badregex.yaml:9:[0-9]+: error: x: bad regular expression"' _ "$out"
check "an example that does not match is reported" sh -c 'echo "$1" | grep -q "does not match its example 2"' _ "$out"

# The shipped rules plus a broken folder: the run is still analysed.
out=$("$RW" --report --rules "$TMP/bad" "$top_srcdir/samples/oom-collateral" 2>"$TMP/err"); rc=$?
check "a broken rule folder does not stop the analysis" [ "$rc" -eq 1 ]
check "... and the diagnosis is still right" sh -c 'echo "$1" | head -1 | grep -q "rank 11 first"' _ "$out"
check "... and the broken file is named on stderr" grep -q "broken.yaml" "$TMP/err"

# The encyclopedia for scripts: --format json gives the same entries,
# errors and themes as the text, and --show the whole entry.
"$RW" --list-rules > "$TMP/list.txt"
"$RW" --list-rules --format json > "$TMP/list.json"
check "--list-rules --format json: the ids of the text list, in order" python3 -c '
import json, sys
ids = [l.split()[0] for l in open(sys.argv[1])]
js = json.load(open(sys.argv[2]))
assert ids and [e["id"] for e in js] == ids, (ids[:3], js[:1])
assert all(e["title"] and e["category"] and e["severity"] and e["file"] for e in js)' "$TMP/list.txt" "$TMP/list.json"
"$RW" --show nccl-watchdog-timeout --format json > "$TMP/show.json"
check "--show --format json: the entry's signatures and checklist" python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
src = open(sys.argv[2]).read()
assert e["id"] == "nccl-watchdog-timeout" and e["summary"] and e["checklist"]
assert e["signatures"] and all(s["id"] in src and s["role"] for s in e["signatures"])
assert all(x in src for s in e["signatures"] for x in s["examples"][:1])' "$TMP/show.json" "$top_srcdir/rules/nccl-watchdog-timeout.yaml"
"$RW" --errors > "$TMP/errors.txt"
"$RW" --errors --format json > "$TMP/errors.json"
check "--errors --format json: one object per message of the text" python3 -c '
import json, sys
n = sum(1 for l in open(sys.argv[1]) if l.lstrip().startswith("-> "))
j = json.load(open(sys.argv[2]))
assert n > 0 and len(j["errors"]) == n, (n, len(j["errors"]))
assert j["env"] and all(v["entries"] for v in j["env"])' "$TMP/errors.txt" "$TMP/errors.json"
"$RW" --list-themes > "$TMP/themes.txt"
"$RW" --list-themes --format json > "$TMP/themes.json"
check "--list-themes: the shipped themes, the same in JSON" python3 -c '
import json, sys, os
names = [l.split()[0] for l in open(sys.argv[1])]
j = json.load(open(sys.argv[2]))
shipped = sorted(f[:-5] for f in os.listdir(sys.argv[3]) if f.endswith(".yaml"))
assert [t["name"] for t in j] == names and sorted(names) == shipped, (names, shipped)' \
    "$TMP/themes.txt" "$TMP/themes.json" "$top_srcdir/themes"
"$RW" --list-rules --format markdown > /dev/null 2> "$TMP/md.err"; rc=$?
check "--list-rules --format markdown is refused" [ "$rc" -eq 2 ] && grep -q "goes with --report" "$TMP/md.err"
finish
