# tmux.sh: the console in a real terminal, for the shell tests: a tmux
# server of the test's own, rankwatch started in a fresh session, keys
# sent, screens captured. Sourced after lib.sh, not run.
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed (./bootstrap installs it)"
	exit 1
fi
SOCK="$TMP/tmux.sock"
export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state" XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data"
mkdir -p "$HOME"
WORK="$TMP/work"
mkdir -p "$WORK"
ln -s "$top_srcdir/samples" "$WORK/samples"
T() { tmux -S "$SOCK" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
# A session that lives as long as the test, so the server never exits
# between the sessions below.
T -f /dev/null new-session -d -s anchor -x 80 -y 24 "sleep 3600"

# start NAME COLS ROWS ARGS...: rankwatch in a fresh tmux window, in
# $WORK (the test's own folder, where samples/ is the tree's: what the
# console writes, an exported report, stays there); the shell reports the
# exit status and the terminal mode after it quits.
# START_ENV: more NAME=VALUE words for its environment.
start() {
	st_s=$1 st_c=$2 st_r=$3; shift 3
	T kill-session -t "$st_s" 2>/dev/null
	sleep 0.1
	T new-session -d -s "$st_s" -x "$st_c" -y "$st_r" \
	    "cd '$WORK' && env LANG=C.UTF-8 TERM=xterm-256color ${START_ENV:-} '$RW' $*; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\\?echo'; sleep 600"
}
screen() { T capture-pane -t "$1" -p; }
keys() { s=$1; shift; T send-keys -t "$s" "$@"; sleep 0.3; }
# wait_for SESSION TEXT: up to 10 s (WAIT_TRIES x 0.2 s) for TEXT to
# appear on the screen
wait_for() {
	i=0
	while [ $i -lt "${WAIT_TRIES:-50}" ]; do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.2; i=$((i + 1))
	done
	echo "  screen of $1 while waiting for '$2':"; screen "$1" | sed 's/^/  | /'
	return 1
}
