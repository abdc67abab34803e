#!/bin/sh
# Bad input gets a clear message naming the file (and line), never a crash
# or a hang, and the rest of the run is still analysed.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

run="$TMP/run"
mkdir -p "$run"
# The one good failure that must still be found among the garbage.
{
	echo "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1"
	echo "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.00 GiB is free."
} > "$run/rank3.log"
echo "[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] step 1" > "$run/rank0.log"
head -c 100000 /dev/zero > "$run/rank1.log"                    # binary
printf 'ok\nnul \000 in a line\nmore\n' > "$run/rank2.log"        # a NUL byte
printf 'bad utf8 \377\376 and \033[31mescapes\033[0m\n' > "$run/rank4.log"
: > "$run/rank5.log"                                           # empty
head -c 52428800 /dev/zero | tr '\0' 'x' > "$run/rank6.log"     # 50 MB, no newline
printf '\nafter the huge line\n' >> "$run/rank6.log"
printf 'secret\n' > "$run/rank7.log"; chmod 000 "$run/rank7.log"   # unreadable
mkfifo "$run/rank8.log"                                        # would block a naive open
ln -s /nonexistent "$run/rank9.log"                            # dangling link

# Root reads anything: test unreadable files as nobody where we can.
as_user=""
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$TMP" "$run"
	chmod 644 "$run"/rank[0-6].log
fi
timeout 120 $as_user "$RW" --report --format json "$run" /nonexistent/path > "$TMP/out.json" 2> "$TMP/err"
rc=$?
cat "$TMP/err"
check "exit status 1 (failure found), no crash, no hang" [ "$rc" -eq 1 ]
check "the OOM on rank 3 is still found" grep -q '"initiating": {"rank": 3' "$TMP/out.json"
check "binary file named" grep -q 'rank1.log: warning: binary data' "$TMP/out.json"
check "huge line named with its line number" grep -q 'rank6.log:1: warning: line longer than 64 KiB' "$TMP/out.json"
if [ -n "$as_user" ]; then
	check "unreadable file named" grep -q 'rank7.log: error: cannot open: Permission denied' "$TMP/err"
fi
check "FIFO named, not read" grep -q 'rank8.log: warning: not a regular file' "$TMP/out.json"
check "dangling link named" grep -q 'rank9.log: warning: dangling symbolic link' "$TMP/out.json"
check "missing path named" grep -q '/nonexistent/path: error: No such file or directory' "$TMP/err"
check "NUL bytes noted" grep -q 'rank2.log: contains NUL bytes' "$TMP/out.json"
check "JSON parses despite invalid UTF-8 and escapes" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out.json"

# The text report never passes an escape sequence through.
"$RW" --report "$run" > "$TMP/out.txt" 2>/dev/null
check "text report has no raw ESC byte" sh -c '! grep -q "$(printf "\033")" "$1"' _ "$TMP/out.txt"

# A crash mid-write leaves the file's last block zero-filled: the log
# before the NULs is still read, and its failure found.
mkdir -p "$TMP/nultail"
{
	i=0
	while [ $i -lt 30 ]; do
		echo "[2024-03-02 10:00:$((i + 10)),000] [INFO] [t.py:1:f] step $i"
		i=$((i + 1))
	done
	echo "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
} > "$TMP/nultail/rank3.log"
head -c 60 /dev/zero >> "$TMP/nultail/rank3.log"
"$RW" --report --format json "$TMP/nultail" > "$TMP/nultail.json" 2>/dev/null; rc=$?
check "a log ending in NULs: exit 1" [ "$rc" -eq 1 ]
check "... its OOM found" grep -q '"initiating": {"rank": 3' "$TMP/nultail.json"
check "... and the NULs noted" grep -q 'rank3.log: contains NUL bytes' "$TMP/nultail.json"

# A report that cannot be written is an error, said so; following
# nothing readable is no "healthy".
if [ -w /dev/full ]; then
	"$RW" --report "$run" > /dev/full 2> "$TMP/full.err"; rc=$?
	check "report to a full disk: exit 2" [ "$rc" -eq 2 ]
	check "... saying why" grep -q "writing to standard output: No space left on device" "$TMP/full.err"
fi
timeout 20 "$RW" --watch --format jsonl /dev/zero > "$TMP/wz.out" 2> "$TMP/wz.err"; rc=$?
check "--watch on nothing readable: exit 2" [ "$rc" -eq 2 ]
check "... saying so, and no verdict" sh -c 'grep -q "nothing readable" "$1" && ! grep -q healthy "$2"' _ "$TMP/wz.err" "$TMP/wz.out"

# The settings file's problems are said, with file and line, and the run is
# still analysed.
mkdir -p "$TMP/cfg/rankwatch"
printf 'theme: light\nbogus: 1\n' > "$TMP/cfg/rankwatch/config.yaml"
XDG_CONFIG_HOME="$TMP/cfg" "$RW" --report "$run" > /dev/null 2> "$TMP/cfg.err"; rc=$?
check "an unknown setting is a warning naming file:line" grep -q "config.yaml:2:1: warning: unknown setting 'bogus'" "$TMP/cfg.err"
check "... and the run is still judged" [ "$rc" -le 1 ]
printf 'theme: [\n' > "$TMP/cfg/rankwatch/config.yaml"
XDG_CONFIG_HOME="$TMP/cfg" "$RW" --report "$run" > /dev/null 2> "$TMP/cfg.err"
check "a settings file that is not YAML is said to be ignored" grep -q "config.yaml:.*settings ignored" "$TMP/cfg.err"

# Nothing readable at all: exit status 2 with a message.
mkdir -p "$TMP/empty"
"$RW" --report "$TMP/empty" > /dev/null 2> "$TMP/err2"; rc=$?
check "an empty folder: exit 2" [ "$rc" -eq 2 ]
check "... saying why, naming it" grep -qx "rankwatch: $TMP/empty: no log files found" "$TMP/err2"
"$RW" --report /nonexistent/run > /dev/null 2> "$TMP/err3"; rc=$?
check "a missing path alone: exit 2" [ "$rc" -eq 2 ]
check "... naming it and why" grep -qx "rankwatch: /nonexistent/run: No such file or directory" "$TMP/err3"
"$RW" --report /nonexistent/a /nonexistent/b > /dev/null 2> "$TMP/err3"; rc=$?
check "two missing paths: the first and how many more" \
    grep -qx "rankwatch: /nonexistent/a: No such file or directory (and 1 more path that cannot be read)" "$TMP/err3"
"$RW" --report --format xml "$run" > /dev/null 2>&1; rc=$?
check "a bad option: exit 2" [ "$rc" -eq 2 ]

# Nothing to judge is never "healthy": empty files, a newest torchrun
# attempt that has not written yet, no encyclopedia.
mkdir -p "$TMP/blank"
: > "$TMP/blank/rank0.log"; : > "$TMP/blank/rank1.log"
"$RW" --report "$TMP/blank" > "$TMP/blank.out" 2> "$TMP/blank.err"; rc=$?
check "only empty files: exit 2" [ "$rc" -eq 2 ]
check "... saying they are empty" grep -q "nothing to analyse: 2 files read, all empty" "$TMP/blank.err"
check "... and printing no verdict" sh -c '! grep -q HEALTHY "$1"' _ "$TMP/blank.out"
att="$TMP/tr/job_x1y2/attempt_0/0"
mkdir -p "$att" "$TMP/tr/job_x1y2/attempt_1/0"
echo "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB" > "$att/stderr.log"
: > "$TMP/tr/job_x1y2/attempt_1/0/stderr.log"
"$RW" --report "$TMP/tr" > /dev/null 2> "$TMP/tr.err"; rc=$?
check "an empty newest attempt: exit 2" [ "$rc" -eq 2 ]
check "... pointing at --all-attempts" grep -q "all-attempts" "$TMP/tr.err"
"$RW" --report --all-attempts "$TMP/tr" > /dev/null 2>&1; rc=$?
check "... and --all-attempts reads the earlier one: exit 1" [ "$rc" -eq 1 ]
mkdir -p "$TMP/bare/rules" "$TMP/xdg"
cp "$RW" "$TMP/bare/rankwatch"
XDG_DATA_HOME="$TMP/xdg" XDG_CONFIG_HOME="$TMP/xdg" "$TMP/bare/rankwatch" --report "$run" \
    > "$TMP/bare.out" 2> "$TMP/bare.err"; rc=$?
check "no encyclopedia loaded: exit 2" [ "$rc" -eq 2 ]
check "... saying where it looked" grep -q "no encyclopedia entries loaded (looked in $TMP/bare/rules" "$TMP/bare.err"

# A catastrophic regex in a rule file: the run finishes, the signature is named.
mkdir -p "$TMP/rules"
cat > "$TMP/rules/slow.yaml" <<'Y'
id: slow
title: Slow regex
category: memory
severity: low
summary: s
signatures:
  - id: runaway
    role: symptom
    pattern: 'catastrophe: (a+)+$'
Y
mkdir -p "$TMP/cat"
{ printf 'catastrophe: '; head -c 30000 /dev/zero | tr '\0' a; printf '!\n'; } > "$TMP/cat/rank0.log"
timeout 60 "$RW" --report --rules "$TMP/rules" "$TMP/cat" > "$TMP/cat.txt" 2>&1; rc=$?
check "catastrophic regex: no hang" [ "$rc" -lt 2 ]
check "... the signature that gave up is named with file and line" grep -q 'rank0.log:1: warning: signature slow/runaway gave up' "$TMP/cat.txt"
# ... and on many lines the count is given, not only the first 20
{ i=0; while [ $i -lt 25 ]; do printf 'catastrophe: '; head -c 3000 /dev/zero | tr '\0' a; printf '!\n'; i=$((i + 1)); done; } > "$TMP/cat/rank0.log"
timeout 120 "$RW" --report --rules "$TMP/rules" "$TMP/cat" > "$TMP/cat2.txt" 2>&1; rc=$?
check "catastrophic regex on 25 lines: no hang" [ "$rc" -lt 2 ]
check "... the count of lines given" grep -q 'gave up (PCRE2 match limit) on 25 lines in all' "$TMP/cat2.txt"

# A folder of 10,000 files.
mkdir -p "$TMP/many"
i=0
while [ $i -lt 10000 ]; do : > "$TMP/many/rank$i.log"; i=$((i + 1)); done
echo "[rank9999]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB" > "$TMP/many/rank9999.log"
timeout 300 "$RW" --report --format json "$TMP/many" > "$TMP/many.json" 2>/dev/null; rc=$?
check "10,000 files: analysed" [ "$rc" -eq 1 ]
check "... and rank 9999 found" grep -q '"initiating": {"rank": 9999' "$TMP/many.json"
# Reports saved beside the logs are not read as logs: the second report is
# the first (the note aside), and a report alone is nothing readable.
mkdir -p "$TMP/saved"
for r in 0 1 2 4; do
	echo '[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] step 1' > "$TMP/saved/rank$r.log"
done
cat > "$TMP/saved/rank3.log" <<'L'
[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] step 1
[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB
L
"$RW" --report "$TMP/saved" > "$TMP/saved.txt"
"$RW" --report "$TMP/saved" > "$TMP/saved/report.txt"
"$RW" --report --format markdown "$TMP/saved" > "$TMP/saved/report.md.txt"
"$RW" --report --format json "$TMP/saved" > "$TMP/saved/report.json"
"$RW" --report "$TMP/saved" > "$TMP/saved2.txt"
sed -e 's/^Run: 5 files /Run: 8 files /' -e '/^Notes:/,/^$/d' "$TMP/saved.txt" > "$TMP/saved.a"
sed -e '/^Notes:/,/^$/d' "$TMP/saved2.txt" > "$TMP/saved.b"
check "saved reports: the report is the same" diff "$TMP/saved.a" "$TMP/saved.b"
check "... each saved report named as skipped" sh -c \
    '[ "$(grep -c "a rankwatch report (by its first line), not a log; skipped" "$1")" -eq 3 ]' \
    _ "$TMP/saved2.txt"
"$RW" --report "$TMP/saved/report.txt" > "$TMP/o" 2> "$TMP/e"; rc=$?
check "a report alone: exit 2, and why" sh -c \
    '[ "$2" -eq 2 ] && grep -q "a rankwatch report" "$1" && grep -q "nothing readable" "$1"' _ "$TMP/e" "$rc"

# A bad option or no path: one line saying what, and where to look; exit 2.
"$RW" --bogus > "$TMP/o" 2> "$TMP/e"; rc=$?
check "a bad option: exit 2" [ "$rc" -eq 2 ]
check "... two lines on stderr, the last pointing at --help" sh -c \
    '[ "$(wc -l < "$1")" -eq 2 ] && [ "$(tail -n 1 "$1")" = "Try '"'"'rankwatch --help'"'"'." ] && [ ! -s "$2" ]' _ "$TMP/e" "$TMP/o"
"$RW" > "$TMP/o" 2> "$TMP/e"; rc=$?
check "no path: exit 2, the same two lines" sh -c \
    '[ "$3" -eq 2 ] && [ "$(wc -l < "$1")" -eq 2 ] && grep -q "no log path given" "$1"' _ "$TMP/e" "$TMP/o" "$rc"
"$RW" --version > "$TMP/o"
check "--version names the licence" grep -q "ISC licence" "$TMP/o"
finish
