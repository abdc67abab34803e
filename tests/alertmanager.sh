#!/bin/sh
# doc/examples/alertmanager.sh against a fake Alertmanager on localhost:
# fed by the real rankwatch --watch --format jsonl on a run that turns
# from healthy to failure while it is watched, it POSTs to /api/v2/alerts
# an array whose alert has the labels of the verdict (verdict, entry,
# initiating rank, run), sends it again while it holds, and resolves it
# (endsAt, the same labels) when the diagnosis changes; fed verdict lines
# by hand, it resolves on a healthy verdict and passes a hostile reason on
# as valid JSON. Every process it starts is ended on exit, and each wait
# has a time limit.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for c in python3 curl; do
	if ! command -v $c >/dev/null 2>&1; then
		echo "$c is not installed (./bootstrap installs it)"
		exit 1
	fi
done
script="$top_srcdir/doc/examples/alertmanager.sh"
pids=""
# every process this test starts is ended with it
trap 'for pid in $pids; do kill "$pid" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# The receiver: port 0, the port it got in $TMP/port, each POST's path and
# body in $TMP/posts/N.path and N.json; 200 with an empty body, as
# Alertmanager answers.
mkdir -p "$TMP/posts"
cat > "$TMP/receiver.py" <<'PY'
import http.server, os, sys
out = sys.argv[1]
n = 0
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global n
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(os.path.join(out, "%03d.path" % n), "w") as f:
            f.write(self.path + "\n" + self.headers.get("Content-Type", "") + "\n")
        with open(os.path.join(out, "%03d.json.tmp" % n), "wb") as f:
            f.write(body)
        os.rename(os.path.join(out, "%03d.json.tmp" % n), os.path.join(out, "%03d.json" % n))
        n += 1
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(s.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()
PY
timeout 300 python3 "$TMP/receiver.py" "$TMP/posts" "$TMP/port" &
pids="$pids $!"
i=0
while [ ! -s "$TMP/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ ! -s "$TMP/port" ]; then
	not_ok "the fake Alertmanager started"
	finish
	exit 1
fi
ALERTMANAGER_URL="http://127.0.0.1:$(cat "$TMP/port")"
export ALERTMANAGER_URL

posts() { ls "$TMP/posts" | grep -c '\.json$'; }
# wait_posts N: up to 15 s for N POSTs
wait_posts() {
	i=0
	while [ "$(posts)" -lt "$1" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(posts)" -ge "$1" ]
}
# nth N: the file of the Nth POST (from 0) since the posts were last cleared
nth() { echo "$TMP/posts/$(ls "$TMP/posts" | grep '\.json$' | sed -n "$(($1 + 1))p")"; }
# alert N PYTHON-EXPR: the expression holds for POST N's only alert a
# (its labels l); the body is a JSON array of one
alert() {
	python3 - "$(nth "$1")" "$2" <<'PY'
import json, re, sys
arr = json.load(open(sys.argv[1]))
assert isinstance(arr, list) and len(arr) == 1, arr
a = arr[0]
l = a["labels"]
iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
ok = eval(sys.argv[2])
if not ok:
    print("  | " + json.dumps(a))
sys.exit(0 if ok else 1)
PY
}

# --- the real pipe: healthy, then a failure -----------------------------------
oom="$top_srcdir/samples/oom-collateral/slurm-90211.out"
run="$TMP/run"
mkdir -p "$run"
head -n 1373 "$oom" > "$run/slurm-90211.out"
mkfifo "$TMP/pipe"
RESEND=1 timeout 120 sh "$script" "job 90211" < "$TMP/pipe" > "$TMP/script.out" 2> "$TMP/script.err" &
spid=$!
pids="$pids $spid"
timeout 120 "$RW" --watch --format jsonl --poll=200 "$run" > "$TMP/pipe" 2> "$TMP/rw.err" &
rpid=$!
pids="$pids $rpid"
sleep 1.5
check "healthy: nothing is posted" [ "$(posts)" -eq 0 ]
tail -n +1374 "$oom" >> "$run/slurm-90211.out"
check "failure: the fake Alertmanager gets a POST" wait_posts 1
check "... to /api/v2/alerts, as JSON" sh -c 'head -2 "$1" | tr "\n" " " | grep -qx "/api/v2/alerts application/json "' \
    _ "$TMP/posts/000.path"
check "... labels: alertname, verdict failure, entry cuda-oom, initiating rank 11, the run" \
    alert 0 'l["alertname"] == "TrainingRunProblem" and l["verdict"] == "failure" and l["entry"] == "cuda-oom" and l["initiating_rank"] == "11" and l["run"] == "job 90211"'
check "... every label value a string" alert 0 'all(isinstance(v, str) for v in l.values())'
check "... summary and description from the reason; startsAt; no endsAt" \
    alert 0 '"rank 11 first" in a["annotations"]["summary"] and a["annotations"]["description"].startswith("rank 11 failed first") and iso.match(a["startsAt"]) and "endsAt" not in a'
# (the verdict line may change a few times while the rest is read: its
# reason grows; each change is sent, with the same labels)
sleep 1
n=$(posts)
check "while it holds, it is sent again (RESEND=1)" wait_posts $((n + 1))
check "... the same labels and startsAt as the first" \
    sh -c 'python3 -c "import json,sys; a, b = (json.load(open(f))[0] for f in sys.argv[1:]); sys.exit((a[\"labels\"], a[\"startsAt\"]) != (b[\"labels\"], b[\"startsAt\"]))" "$1" "$2"' \
    _ "$(nth 0)" "$(nth "$n")"
# an earlier failure on another rank: the diagnosis changes
echo "2024-06-18 11:30:00,000 [rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.00 GiB" > "$run/rank3-early.log"
i=0
while [ $i -lt 150 ] && ! grep -q '"initiating_rank": "3"' "$TMP"/posts/*.json 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
n=$(grep -l '"endsAt"' "$TMP"/posts/*.json 2>/dev/null | head -1)
check "a new initiating rank: the old alert is resolved (endsAt)" [ -n "$n" ]
if [ -n "$n" ]; then
	n=$(($(ls "$TMP/posts" | grep '\.json$' | grep -n "^$(basename "$n")$" | cut -d: -f1) - 1))
	check "... with the labels it fired with" \
	    alert "$n" 'l["initiating_rank"] == "11" and l["entry"] == "cuda-oom" and iso.match(a["endsAt"])'
fi
check "... and the new one fires" grep -q '"initiating_rank": "3"' "$TMP"/posts/*.json
kill -TERM $rpid
wait $rpid
wait $spid; rc=$?
check "rankwatch stopped: the script ends with status 0" [ "$rc" -eq 0 ]
check "... it said nothing on stderr" [ ! -s "$TMP/script.err" ]
cat "$TMP/script.err"
sleep 1.5
before=$(posts)
sleep 1.5
check "... and nothing is sent after it ended (its resender ended too)" [ "$(posts)" -eq "$before" ]

# --- by hand: healthy resolves; a hostile reason stays valid JSON ------------
rm -f "$TMP"/posts/*
cat > "$TMP/lines" <<'L'
{"type": "event", "event": {"file": "x", "line": 1}}
{"type": "verdict", "verdict": "hang", "initiating": null, "suspect": 5, "entry": "nccl-watchdog-timeout", "confidence": "medium", "reason": "rank 5 \"went\" silent \\ at 10:00, \"entry\": \"fake\", \u001b[2J {\"x\"}"}
{"type": "verdict", "verdict": "healthy", "initiating": null, "suspect": null, "entry": null, "confidence": "high", "reason": "no failure or stall found"}
L
RESEND=0 timeout 30 sh "$script" "it's \"quoted\"" < "$TMP/lines" > "$TMP/script.out" 2>&1; rc=$?
check "by hand: status 0" [ "$rc" -eq 0 ]
check "... two POSTs (the hang, then its resolution)" [ "$(posts)" -eq 2 ]
check "... the hang: verdict, entry, no initiating rank, suspect 5, the run as given" \
    alert 0 'l["verdict"] == "hang" and l["entry"] == "nccl-watchdog-timeout" and l["initiating_rank"] == "none" and l["suspect_rank"] == "5" and l["run"] == "it'"'"'s \"quoted\""'
check "... the reason passed on as it was (quotes, backslash, escapes)" \
    alert 0 'a["annotations"]["description"] == "rank 5 \"went\" silent \\ at 10:00, \"entry\": \"fake\", \x1b[2J {\"x\"}"'
check "... healthy: the hang resolved, the same labels, endsAt" \
    alert 1 'l["verdict"] == "hang" and l["suspect_rank"] == "5" and iso.match(a["endsAt"])'
ALERTMANAGER_URL= sh "$script" x < /dev/null > "$TMP/u.out" 2>&1; rc=$?
check "without ALERTMANAGER_URL: usage, exit 2" sh -c '[ "$1" -eq 2 ] && grep -q "^usage:" "$2"' _ "$rc" "$TMP/u.out"
finish
