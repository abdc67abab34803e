#!/bin/sh
# The console as a user meets it: the real binary in a real terminal
# (tmux), keys sent, screens captured and compared.
#   tests/console.sh --update   rewrites the golden screens
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
# the encyclopedia shipped: one entry a file
nentries=$(ls "$top_srcdir"/rules/*.yaml | wc -l | tr -d " ")

. "$top_srcdir/tests/tmux.sh"
update=0
[ "${1:-}" = "--update" ] && update=1
golden() {	# golden SESSION NAME: compare the screen with tests/golden/screens/NAME
	screen "$1" > "$TMP/$2"
	if [ "$update" = 1 ]; then
		mkdir -p "$top_srcdir/tests/golden/screens"
		cp "$TMP/$2" "$top_srcdir/tests/golden/screens/$2"
	fi
	diff -u "$top_srcdir/tests/golden/screens/$2" "$TMP/$2"
}

# 1. Every sample opens at 80x24 and at 160x50 with the verdict of its truth.
for truth in "$top_srcdir"/samples/*.truth; do
	name=$(basename "$truth" .truth)
	want=$(sed -n 's/^verdict: //p' "$truth" | tr a-z A-Z)
	for size in "80 24" "160 50"; do
		set -- $size
		start s "$1" "$2" "samples/$name"
		check "$name at ${1}x$2: opens with verdict $want" wait_for s " $want "
		check "$name at ${1}x$2: finished loading" wait_for s "following"
		if [ "$1" = 80 ]; then
			# every screen on every sample: the log at the first failure
			# (or the first rank), the first diagnosis' entry, the encyclopedia
			keys s f Enter
			check "$name: the log view opens" wait_for s " lines"
			keys s q Tab Enter
			check "$name: the entry view opens" wait_for s " encyclopedia  "
			keys s q b
			check "$name: the encyclopedia opens" wait_for s "$nentries entries"
			keys s q
		fi
		keys s q
		check "$name at ${1}x$2: q quits, status 0" wait_for s "EXIT=0"
		check "$name at ${1}x$2: terminal restored" wait_for s "echo"
	done
done

# 2. Golden screens: the overview and the entry view of one sample.
start g 80 24 samples/oom-collateral
wait_for g "following" >/dev/null
check "overview at 80x24 matches its golden screen" golden g oom-collateral-overview-80x24.txt
keys g Tab Enter
wait_for g "encyclopedia  cuda-oom" >/dev/null
check "entry view at 80x24 matches its golden screen" golden g oom-collateral-entry-80x24.txt
start g 120 40 samples/fsdp-shape-hang
wait_for g "following" >/dev/null
check "hang overview at 120x40 matches its golden screen" golden g fsdp-shape-hang-overview-120x40.txt

# 3. The first failure, its log, a search in the log.
start f 120 40 samples/oom-collateral
wait_for f "following" >/dev/null
keys f f
check "f: the status names the first failure" wait_for f "rank 11: CUDA out of memory"
keys f Enter
check "Enter: the log view of rank 11" wait_for f " rank 11  "
check "... at the failure's time" wait_for f "[rank11]: Traceback"
keys f / "OutOfMemoryError" Enter
check "/ search: the position moves to the match" wait_for f "slurm-90211.out:1374"
keys f g ]
check "] jumps to the next matched line" wait_for f "slurm-90211.out:1374"
keys f F "Traceback" Enter
check "F filters the log to the lines with a word" wait_for f "1 of 90 lines match Traceback"
keys f F C-u Enter
check "... an empty filter shows them all" wait_for f " rank 11  90 lines"
keys f q
check "q goes back to the overview" wait_for f "diagnoses"
# a mouse click (xterm SGR report) on the fourth rank row selects it
T send-keys -t f -l "$(printf '\033[<0;3;8M\033[<0;3;8m')"
sleep 0.4
check "a click selects the rank row under it" sh -c 'tmux -S "$1" capture-pane -t f -p | sed -n 8p | grep -q "^>"' _ "$SOCK"

# 4. The checklist: tick a step, quit, reopen, the tick is kept.
start c 100 30 samples/silent-rank-hang
wait_for c "following" >/dev/null
keys c Tab Enter
check "Tab Enter opens the first diagnosis" wait_for c "encyclopedia  nccl-watchdog-timeout"
keys c ] Space
check "] then Space ticks the first checklist step" wait_for c "[x] 1."
keys c a
keys c "checked rank 3 py-spy" Enter
check "a adds a note to it" wait_for c "note: checked rank 3 py-spy"
keys c q q
check "quits cleanly" wait_for c "EXIT=0"
start c 100 30 samples/silent-rank-hang
wait_for c "following" >/dev/null
keys c Tab Enter ]
check "reopened: the tick is still there" wait_for c "[x] 1."
check "... and the note" wait_for c "note: checked rank 3 py-spy"
keys c Q

# 5. Resizing at any time redraws correctly.
start r 120 40 samples/fsdp-shape-hang
wait_for r "following" >/dev/null
T resize-window -t r -x 60 -y 16
sleep 0.5
check "shrunk to 60x16: still drawn" wait_for r "HANG"
check "... with the key bar" wait_for r "Enter log"
T resize-window -t r -x 200 -y 60
sleep 0.5
check "grown to 200x60: the diagnoses are back" wait_for r "fsdp-shape-mismatch-hang"
keys r Q

# 6. A log line with escape sequences is shown, never obeyed.
mkdir -p "$TMP/esc"
{
	echo "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1"
	printf '[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] evil \033]0;pwned\007\033[2J\033[31mred\033[0m \302\233x\n'
	echo "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"
} > "$TMP/esc/rank0.log"
start e 100 30 "$TMP/esc"
wait_for e "following" >/dev/null
keys e f Enter
check "the escape sequences are shown as text" wait_for e "evil ^[]0;pwned^G^[[2J^[[31mred^[[0m"
check "... and C1 controls as hex" wait_for e '\xc2'
check "... and the screen was not cleared by them" wait_for e " rank 0  "
keys e Q

# 7. Other screens: help, encyclopedia, error overview, themes, export.
start o 100 30 samples/nccl-version-mismatch
wait_for o "following" >/dev/null
keys o ?
check "? shows the help from the key table" wait_for o "jump to the first failure"
keys o q b
check "b opens the encyclopedia" wait_for o "$nentries entries"
keys o / oom Enter
check "/ filters it" wait_for o "host-oom-kill"
keys o q E
check "E shows every error message" wait_for o "communication"
keys o q t
check "t cycles the theme" wait_for o "theme: "
keys o e
check "e exports the incident report" wait_for o "incident report written to"
f=$(ls "$WORK"/rankwatch-incident-*.md 2>/dev/null | head -1)
check "... a Markdown file with the checklist" sh -c 'grep -q "## rankwatch: failure" "$1" && grep -q "Confirmation checklist" "$1"' _ "$f"
keys o Q

# 8. SIGTERM and SIGINT restore the terminal.
start k 80 24 samples/oom-collateral
wait_for k "following" >/dev/null
# only our own rankwatch: the child of this pane's shell
pkill -TERM -P "$(T list-panes -t k -F '#{pane_pid}')" -f rankwatch
check "SIGTERM: exits 143 (128 + 15), saying why" wait_for k "EXIT=143"
check "... saying why" wait_for k "terminated (SIGTERM)"
check "... and the terminal echoes again" wait_for k "echo"
start k2 80 24 samples/oom-collateral
wait_for k2 "following" >/dev/null
pkill -INT -P "$(T list-panes -t k2 -F '#{pane_pid}')" -f rankwatch
check "SIGINT: exits 130 (128 + 2)" wait_for k2 "EXIT=130"
check "... saying why" wait_for k2 "interrupted (SIGINT)"

# 8b. Live: a line appended while the console is open shows up.
mkdir -p "$TMP/live"
echo "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1" > "$TMP/live/rank0.log"
echo "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] step 1" > "$TMP/live/rank1.log"
start l 100 30 "$TMP/live"
check "live: opens healthy" wait_for l "HEALTHY"
echo "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" >> "$TMP/live/rank1.log"
check "live: the appended failure turns the verdict" wait_for l "FAILURE"
check "... naming the rank" wait_for l "rank 1 first"
echo "[2024-03-02 10:00:01,000] [INFO] [t.py:1:f] step 1" > "$TMP/live/rank2.log"
check "live: a new rank file is read" wait_for l "3 ranks"
keys l Q

# 8c. The demo: a sample incident replayed live (here in 8 s, not 45).
T kill-session -t d 2>/dev/null
T new-session -d -s d -x 100 -y 30 "cd '$WORK' && env TMPDIR='$TMP' RANKWATCH_DEMO_SECONDS=8 LANG=C.UTF-8 TERM=xterm-256color '$RW' --demo=silent-rank-hang; echo EXIT=\$?; sleep 600"
check "demo: starts with the ranks training" wait_for d "following"
check "demo: it replays into a folder of \$TMPDIR" sh -c 'ls -d "$1"/rankwatch-demo-* >/dev/null 2>&1' _ "$TMP"
i=0; while [ $i -lt 60 ] && ! screen d | grep -q "HANG"; do sleep 0.5; i=$((i + 1)); done
check "demo: the hang appears as the lines arrive" wait_for d "suspect rank 3"
keys d q
check "demo: quits and cleans up" wait_for d "EXIT=0"
check "... its temporary folder is gone" sh -c '! ls -d "$1"/rankwatch-demo-* 2>/dev/null | grep -q .' _ "$TMP"
T new-session -d -s d2 -x 80 -y 24 "cd '$WORK' && '$RW' --demo=nosuch; echo EXIT=\$?; sleep 600"
check "demo: an unknown sample is named" wait_for d2 "no demo 'nosuch'"

# 9. Monochrome (NO_COLOR) and an unknown theme still draw.
start m 80 24 --theme nosuch samples/oom-collateral
check "an unknown theme: a message, the default theme" wait_for m "no theme 'nosuch'"
keys m Q
T kill-session -t m
T new-session -d -s m -x 80 -y 24 "cd '$WORK' && env NO_COLOR=1 LANG=C TERM=xterm '$RW' samples/oom-collateral; sleep 600"
check "NO_COLOR and an ASCII locale: drawn with ASCII glyphs" wait_for m "X "
T kill-session -t m
T new-session -d -s m -x 80 -y 24 "cd '$WORK' && env LANG=C.UTF-8 TERM=xterm '$RW' samples/oom-collateral; sleep 600"
check "an 8-colour terminal: the 256-colour theme degrades and draws" wait_for m "INITIATING cuda-oom"
finish
