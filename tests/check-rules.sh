#!/bin/sh
# The shipped encyclopedia validates, examples and counterexamples included;
# a broken rule file is reported with file, line and column, and the other
# rules still load.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

out=$("$RW" --check-rules "$top_srcdir/rules" 2>&1); rc=$?
echo "$out" | tail -3
check "--check-rules passes on rules/" [ "$rc" -eq 0 ]
check "--check-rules reports all rules valid" sh -c 'echo "$1" | grep -q "all rules are valid"' _ "$out"

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
finish
