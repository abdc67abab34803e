#!/bin/sh
# The README says what the program does: each of its examples is run and
# compared (tests/readme.py says how), its Usage table has every option of
# --help, its JSON section every key of the report, its Samples section
# every sample. After a deliberate change of output:
#   python3 tests/readme.py README.md ./rankwatch /tmp/x --update
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed (./bootstrap installs it)"; exit 1; }
python3 "$top_srcdir/tests/readme.py" "$top_srcdir/README.md" "$RW" "$TMP"
