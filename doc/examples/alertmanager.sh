#!/bin/sh
# alertmanager.sh: rankwatch's verdicts as Alertmanager alerts.
#
#   rankwatch --watch --format jsonl RUN | ALERTMANAGER_URL=http://am:9093 \
#       sh alertmanager.sh RUN-NAME
#
# Reads the verdict lines of `rankwatch --watch --format jsonl` on standard
# input (event lines are skipped) and POSTs to $ALERTMANAGER_URL/api/v2/alerts
# a JSON array of alerts:
#   - a failure or a hang fires an alert, labels alertname, verdict, entry,
#     initiating_rank (or "none"), suspect_rank (or "none"), run and severity;
#     annotations summary and description (rankwatch's reason); startsAt
#     when it was first seen. It is sent again every $RESEND seconds while it
#     holds (Alertmanager resolves an alert that is not, after its
#     resolve_timeout).
#   - a change of verdict, entry or rank resolves the previous alert
#     (endsAt now; the same labels) and fires the new one; a healthy
#     verdict (the run recovered, or a log was rewritten) resolves it.
#   - at the end of the input (rankwatch stopped) the alert is left as it
#     is and no longer sent again: Alertmanager resolves it after its
#     resolve_timeout.
#
# Environment: ALERTMANAGER_URL (required; "-" prints each POST body on
# standard output instead), ALERTNAME (default TrainingRunProblem),
# SEVERITY (default critical), RESEND (seconds, default 60; 0: never),
# CURL_OPTS (extra curl options, e.g. "--cacert /etc/ssl/am.pem").
#
# Needs only POSIX sh, sed, date and curl. It reads rankwatch's verdict
# lines, not any JSON: their keys come in a fixed order and the only free
# text, the reason, comes last; it is passed on as the JSON string it
# already is, never unescaped. tests/alertmanager.sh runs this script
# against a fake Alertmanager.
set -u

if [ -z "${ALERTMANAGER_URL:-}" ] || [ $# -ne 1 ]; then
	echo "usage: rankwatch --watch --format jsonl RUN | ALERTMANAGER_URL=URL $0 RUN-NAME" >&2
	exit 2
fi
url=${ALERTMANAGER_URL%/}/api/v2/alerts
alertname=${ALERTNAME:-TrainingRunProblem}
severity=${SEVERITY:-critical}
resend=${RESEND:-60}

# s as the inside of a JSON string (for values from the command line)
jstr() {
	printf '%s' "$1" | tr -d '\000-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'
}
run=$(jstr "$1")
alertname=$(jstr "$alertname")
severity=$(jstr "$severity")

now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

post() {	# post JSON-ARRAY
	if [ "$ALERTMANAGER_URL" = - ]; then
		printf '%s\n' "$1"
		return 0
	fi
	# shellcheck disable=SC2086 # CURL_OPTS is split on purpose
	printf '%s' "$1" | curl -fsS --max-time 10 ${CURL_OPTS:-} -X POST \
	    -H 'Content-Type: application/json' --data-binary @- "$url" >/dev/null ||
	    echo "alertmanager.sh: POST to $url failed" >&2
}

# a key's value in a verdict line whose reason was taken out: a "string"
# (unquoted here), a number or null
field() {	# field LINE KEY
	printf '%s\n' "$1" | sed -E -n "s/.*[{,] \"$2\": (\"[^\"]*\"|-?[0-9]+|null).*/\1/p" |
	    sed -E 's/^"(.*)"$/\1/'
}

# The alert firing now: its labels (JSON), startsAt and annotations, also
# kept in a file for the resender.
state=$(mktemp "${TMPDIR:-/tmp}/rankwatch-alert.XXXXXX") || exit 2
labels="" starts="" annotations="" resender=""
cleanup() {
	[ -n "$resender" ] && kill "$resender" 2>/dev/null
	rm -f "$state" "$state.new"
}
trap cleanup EXIT
trap 'exit 0' INT TERM HUP

alert() {	# alert ENDS-AT (empty: firing)
	a="{\"labels\": $labels, \"annotations\": $annotations, \"startsAt\": \"$starts\""
	[ -n "$1" ] && a="$a, \"endsAt\": \"$1\""
	printf '[%s}]' "$a"
}

if [ "$resend" -gt 0 ] 2>/dev/null; then
	# sends the firing alert again while it holds; exits with this shell
	parent=$$
	(
		nap=""
		trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null; exit 0' TERM
		while :; do
			sleep "$resend" & nap=$!
			wait "$nap"
			kill -0 "$parent" 2>/dev/null || exit 0
			body=$(cat "$state" 2>/dev/null) && [ -n "$body" ] && post "$body"
		done
	) &
	resender=$!
fi

while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'{"type": "verdict", '*) ;;
	*) continue ;;
	esac
	# the reason: the JSON string's inside, as rankwatch wrote it
	reason=$(printf '%s\n' "$line" | sed -n 's/.*, "reason": "\(.*\)"}$/\1/p')
	rest=$(printf '%s\n' "$line" | sed 's/, "reason": ".*"}$/}/')
	verdict=$(field "$rest" verdict)
	entry=$(field "$rest" entry)
	initiating=$(field "$rest" initiating)
	suspect=$(field "$rest" suspect)
	confidence=$(field "$rest" confidence)
	[ -n "$verdict" ] || continue
	[ "$initiating" = null ] && initiating=none
	[ "$suspect" = null ] && suspect=none
	[ "$entry" = null ] && entry=none
	new=""
	if [ "$verdict" != healthy ]; then
		new="{\"alertname\": \"$alertname\", \"verdict\": \"$verdict\", \"entry\": \"$entry\", \
\"initiating_rank\": \"$initiating\", \"suspect_rank\": \"$suspect\", \"run\": \"$run\", \
\"severity\": \"$severity\"}"
	fi
	if [ -n "$labels" ] && [ "$new" != "$labels" ]; then
		rm -f "$state"
		post "$(alert "$(now)")"	# resolved: the same labels, endsAt now
		labels=""
	fi
	[ -n "$new" ] || continue
	if [ -z "$labels" ]; then
		labels=$new
		starts=$(now)
	fi
	if [ "$initiating" != none ]; then
		who="rank $initiating first"
	else
		who="suspect rank $suspect"
	fi
	annotations="{\"summary\": \"$verdict on $run: $who ($entry, confidence $confidence)\", \
\"description\": \"$reason\"}"
	alert "" > "$state.new" && mv -f "$state.new" "$state"
	post "$(cat "$state")"
done
exit 0
