#!/bin/sh
# The console read the way less and vim users expect (issue 11), in a real
# terminal (tmux): where each kind of jump lands at 80x24, wrapping, the
# line shown whole, the search (smart case, a regular expression, in
# slices while keys are answered, cancelled with Esc), loading (nothing
# silent or healthy before it is read; the cursor stays where the user
# put it), q, ^C, ^Z, Esc and Alt keys, every theme, checklist ticks kept
# however the run is named.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/tmux.sh"

# row_of SESSION TEXT: the screen row (0 = the top) of the first line holding TEXT
row_of() { screen "$1" | grep -nF -- "$2" | head -1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }
# blank_rows SESSION FIRST LAST: how many of the screen's rows FIRST..LAST are empty
blank_rows() { screen "$1" | sed -n "$(($2 + 1)),$(($3 + 1))p" | grep -c '^ *$'; }

# A rank with 400 lines: its OOM (a 600-character line) at line 201, a
# marker line at 120 and at 300.
long="$TMP/long"
mkdir -p "$long"
python3 - "$long" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/rank0.log", "w") as f:
    for i in range(1, 401):
        t = "[2024-03-02 10:%02d:%02d,000] [INFO] [train.py:9:step] " % (i // 60, i % 60)
        if i == 201:
            f.write("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
                    + "GPU 0 has a total capacity of 79.11 GiB " * 12 + "END-OF-THE-OOM-LINE\n")
        elif i in (120, 300):
            f.write(t + "Checkpoint MARKER written\n")
        else:
            f.write(t + "step %d loss 2.0\n" % i)
with open(d + "/rank1.log", "w") as f:
    for i in range(1, 401):
        f.write("[2024-03-02 10:%02d:%02d,500] [INFO] [train.py:9:step] step %d loss 2.0\n" % (i // 60, i % 60, i))
PY

# 1. Landing: the line jumped to a third of the way down, the screen full.
start j 80 24 "'$long'"
wait_for j "following" >/dev/null
keys j Enter
check "Enter on the initiating rank opens its log at the OOM, not at line 1" wait_for j "rank0.log:201"
r=$(row_of j "OutOfMemoryError")
check "... the OOM a third of the way down (row $r of 21)" [ "$r" -ge 5 ] && [ "$r" -le 9 ]
check "... with no blank row" [ "$(blank_rows j 1 21)" -eq 0 ]
keys j g ]
r=$(row_of j "OutOfMemoryError")
check "] from the top lands on the matched line a third of the way down (row $r)" [ "$r" -ge 5 ] && [ "$r" -le 9 ]
keys j g / marker Enter
check "/marker: smart case finds MARKER" wait_for j "rank0.log:120"
r=$(row_of j "MARKER")
check "... a third of the way down (row $r)" [ "$r" -ge 5 ] && [ "$r" -le 9 ]
keys j n
check "n: the next match" wait_for j "rank0.log:300"
keys j n
check "n past the last: wraps around, as vim says" wait_for j "search hit BOTTOM, continuing at TOP"
check "... to the first match" wait_for j "rank0.log:120"
keys j / Marker Enter
check "a capital letter makes it exact: pattern not found" wait_for j "pattern not found: Marker"
keys j / "step 3[0-9]1 loss" Enter
check "a regular expression" wait_for j "rank0.log:301"
keys j G
check "G: the last line" wait_for j "line 400 of 400"
check "... and the screen full above it" [ "$(blank_rows j 1 21)" -eq 0 ]
# 2. Long lines: cut, wrapped (w), scrolled (0, $), shown whole (Enter).
keys j g ]
check "a long line is cut at the screen's edge" sh -c '! tmux -S "$1" capture-pane -t j -p | grep -q END-OF-THE-OOM-LINE' _ "$SOCK"
keys j '$'
check "\$ scrolls to the end of the line" wait_for j "END-OF-THE-OOM-LINE"
keys j 0
check "0 scrolls back to its start" wait_for j "[rank0]: torch.OutOfMemoryError"
keys j w
check "w wraps long lines" wait_for j "THE-OOM-LINE"
check "... and says so in the title" wait_for j "wrapped"
keys j w
keys j Enter
check "Enter shows the line whole" wait_for j "END-OF-THE-OOM-LINE"
check "... on a page of its own, with its size" wait_for j "bytes"
keys j q
# 3. m: this rank / all ranks merged, at the same line.
keys j m
check "m in the log view: all ranks merged" wait_for j "all ranks merged by time"
check "... at the same line" wait_for j "rank0.log:201"
keys j m
check "m again: the rank alone" wait_for j " rank 0  400 lines"
keys j Q

# 4. Search on a large merged view: in slices, keys answered meanwhile.
big="$TMP/big"
mkdir -p "$big"
python3 - "$big" <<'PY'
import sys
d = sys.argv[1]
for r in range(4):
    with open("%s/rank%d.log" % (d, r), "w") as f:
        for i in range(250000):
            f.write("[2024-03-02 %02d:%02d:%02d,%03d] [INFO] [train.py:9:step] step %d loss 2.0 tokens 51493\n"
                    % (10 + i // 3600 % 10, i // 60 % 60, i % 60, r, i))
PY
WAIT_TRIES=300 start s 80 24 "'$big'"
WAIT_TRIES=300 wait_for s "following" >/dev/null
keys s m
WAIT_TRIES=300 wait_for s "all ranks merged by time" >/dev/null
# (no pause after the keys, and a quick look: the search takes a third of a
# second on a fast machine, less than keys' pause)
T send-keys -t s / "no such text anywhere" Enter
i=0
while [ $i -lt 500 ] && ! screen s | grep -q "searching for no such text anywhere"; do
	sleep 0.01; i=$((i + 1))
done
check "a search through 1,000,000 lines shows its progress" [ $i -lt 500 ]
t0=$(date +%s%N)
T send-keys -t s Escape
i=0
while [ $i -lt 200 ] && ! screen s | grep -q "search stopped"; do sleep 0.01; i=$((i + 1)); done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "... Esc answered while it runs, in $ms ms (under 200)" [ "$ms" -lt 200 ]
check "... and it says where it stopped" wait_for s "search stopped after"
check "... and the view is still there (Esc did not leave it)" wait_for s "all ranks merged by time"
keys s G
check "G on 1,000,000 lines: the last one, at once" wait_for s "line 1000000 of 1000000"
keys s g
check "g: the first again" wait_for s "line 1 of 1000000"
keys s / "tokens 5149[4]" Enter
WAIT_TRIES=300 check "a search through all of it ends: pattern not found" wait_for s "pattern not found: tokens 5149[4]"
keys s Q

# 5. Loading: nothing silent or healthy before it is read; the cursor.
many="$TMP/many"
mkdir -p "$many"
python3 - "$many" <<'PY'
import sys
d = sys.argv[1]
line = "[2024-03-02 10:%02d:%02d,000] [INFO] [train.py:9:step] step %d loss 2.0 " + "x" * 400 + "\n"
for r in range(512):
    with open("%s/rank%d.log" % (d, r), "w") as f:
        f.write("".join(line % (i // 60 % 60, i % 60, i) for i in range(500)))
        if r == 400:
            f.write("[rank400]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
PY
# read as from a network filesystem (bench/delayfs.c: 2 ms before each
# open and read of these files), so that the loading lasts long enough to
# be seen: these 115 MiB read from the page cache in a tenth of a second
check "bench/delayfs.c builds" cc -O2 -shared -fPIC -o "$TMP/delayfs.so" \
    "$top_srcdir/bench/delayfs.c" -ldl
START_ENV="LD_PRELOAD=$TMP/delayfs.so DELAYFS_PREFIX=$many DELAYFS_US=2000 ASAN_OPTIONS=verify_asan_link_order=0" \
    start l 80 24 "'$many'"
i=0
while [ $i -lt 100 ] && ! screen l | grep -q "READING"; do sleep 0.02; i=$((i + 1)); done
screen l > "$TMP/loading.txt"
check "while loading the header says READING and how far" grep -q "READING.*reading [0-9]* of 512 files" "$TMP/loading.txt"
check "... and no rank is called silent, nor the run healthy" sh -c '! grep -qE "HEALTHY|silent" "$1"' _ "$TMP/loading.txt"
# healthy only for a rank whose file is read to the end: the first N files
# of the run (in the order they are read), N from "loading N/512 files"
check "... and a rank is called healthy only when its file is read to the end" \
    python3 - "$TMP/loading.txt" "$many" <<'PY'
import os, re, sys
screen = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"loading (\d+)/512 files", screen)
read = sorted(os.listdir(sys.argv[2]))[: int(m.group(1))] if m else []
done = {int(re.sub(r"\D", "", f)) for f in read}
bad = [r for r in re.findall(r"^[> ]\s*(\d+) .* healthy\s*$", screen, re.M) if int(r) not in done]
sys.exit(1 if bad or not m else 0)
PY
WAIT_TRIES=300 wait_for l "following" >/dev/null
check "untouched, the cursor follows the initiating rank" sh -c 'tmux -S "$1" capture-pane -t l -p | grep -q "^>  400 "' _ "$SOCK"
keys l Q
# (where the cursor goes when the rows re-sort is tests/test_rows.c: here
# the loading is too quick to press keys during it reliably)

# 6. Keys: q and ^C quit, ^Z suspends, Esc and Alt keys on the home screen do not.
start k 80 24 samples/oom-collateral
wait_for k "following" >/dev/null
T send-keys -t k Escape
sleep 0.4
check "Esc on the home screen does not quit" wait_for k "q quits"
T send-keys -t k M-j
sleep 0.4
check "an Alt chord does not quit either" wait_for k "Alt keys do nothing here"
T send-keys -t k C-c
check "^C quits with status 130" wait_for k "EXIT=130"
T kill-session -t z 2>/dev/null
T new-session -d -s z -x 80 -y 24 "cd '$WORK' && env PS1='$ ' LANG=C.UTF-8 TERM=xterm-256color bash --norc -i"
sleep 0.5
T send-keys -t z "'$RW' samples/oom-collateral" Enter
wait_for z "following" >/dev/null
T send-keys -t z C-z
check "^Z suspends: the shell has its prompt back" wait_for z "Stopped"
T send-keys -t z "fg" Enter
check "fg: the console is drawn again" wait_for z "FAILURE"
T send-keys -t z q
sleep 0.3
T send-keys -t z "echo EXIT=\$?" Enter
check "... and q quits it (status 0)" wait_for z "EXIT=0"

# 7. Every theme in turn, mono among them, and --theme mono can cycle too.
start t 80 24 samples/oom-collateral
wait_for t "following" >/dev/null
: > "$TMP/themes"
for i in 1 2 3 4; do keys t t; screen t | grep -o "theme: [a-z-]*" >> "$TMP/themes"; done
for th in dark high-contrast light mono; do
	check "t reaches the $th theme" grep -q "theme: $th" "$TMP/themes"
done
keys t Q
start t2 80 24 --theme mono samples/oom-collateral
wait_for t2 "following" >/dev/null
keys t2 t
check "--theme mono: t goes to the next theme, not 'no colours'" wait_for t2 "theme: dark"
keys t2 Q

# 8. Checklist ticks belong to the run, however it is named.
start c 100 30 samples/oom-collateral
wait_for c "following" >/dev/null
keys c Tab Enter ] Space
check "a step ticked on the run's folder" wait_for c "[x] 1."
keys c Q
start c2 100 30 samples/oom-collateral/slurm-90211.out
wait_for c2 "following" >/dev/null
keys c2 Tab Enter ]
check "... is ticked when the run is opened by its file" wait_for c2 "[x] 1."
keys c2 Q
start c3 100 30 ./samples/../samples/oom-collateral/
wait_for c3 "following" >/dev/null
keys c3 Tab Enter ]
check "... and by another spelling of its folder" wait_for c3 "[x] 1."
keys c3 Q

# 9. The overview's filter hides collateral ranks and the title says so.
start f 100 30 samples/oom-collateral
wait_for f "following" >/dev/null
keys f F
check "F: not collateral (1 of 16 ranks shown, said in the title)" wait_for f "1 of 16 ranks (not collateral)"
keys f + + +
check "zoomed under 10 s a column, the label has its tenths" \
    sh -c 'tmux -S "$1" capture-pane -t f -p | grep -Eq " [0-9]\.[0-9] s/col "' _ "$SOCK"
keys f Q

# 10. What the screen says: nothing cut that means something.
start h 80 24 samples/oom-collateral
wait_for h "following" >/dev/null
check "80x24: the key bar ends whole (q quit), items dropped instead of cut" \
    sh -c 'tmux -S "$1" capture-pane -t h -p | tail -1 | grep -q "q quit *$"' _ "$SOCK"
check "... the verdict keeps its collateral count" wait_for h "15 collateral"
check "... the reason takes a second row" sh -c 'tmux -S "$1" capture-pane -t h -p | sed -n 4p | grep -q "before any other rank"' _ "$SOCK"
check "... a row's annotation is not cut mid-word" sh -c '! tmux -S "$1" capture-pane -t h -p | grep -q "cuda-oom, q$"' _ "$SOCK"
keys h Q
start d 120 40 samples/skip-allreduce-desync
wait_for d "following" >/dev/null
keys d Tab Enter
check "a diagnosis resting on conditions says so" wait_for d "from 4 cross-rank conditions"
check "... and links the rank they blame" wait_for d "> rank 6: its log"
keys d Tab Enter
check "... Enter on it opens rank 6's log" wait_for d " rank 6  "
keys d Q
WAIT_TRIES=300 start g 250 40 "'$many'"
WAIT_TRIES=300 wait_for g "following" >/dev/null
keys g c
cells=$(screen g | grep -E '^ +[0-9]+ [oX~?.]+' | head -1 | awk '{ print length($2) }')
check "the compact grid at 250 columns: whole nodes of 8 per row ($cells cells, not 242)" \
    [ "${cells:-0}" -gt 200 ] && [ $((cells % 8)) -eq 0 ]
keys g Q
start b 120 40 samples/oom-collateral
wait_for b "following" >/dev/null
keys b b
wait_for b "entries" >/dev/null
cols=$(screen b | grep -E '^ +[a-z0-9-]+ +(communication|model|data|memory|hardware|process|environment|storage|performance) ' |
    awk '{ print index($0, " " $2 " ") }' | sort -u | wc -l)
check "the encyclopedia's columns line up on every row" [ "$cols" -eq 1 ]
keys b Q
finish
