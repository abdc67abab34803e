#!/bin/sh
# The bash completion (tui/rankwatch.bash, as make builds it into
# completion/rankwatch), with the built rankwatch first in PATH:
#  1. loaded into an interactive bash, with the bash-completion package
#     and without it, the function complete -p names for rankwatch called
#     as bash calls it (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT
#     and the three arguments) and its COMPREPLY printed;
#  2. in a real terminal (tmux): Tab pressed in bash -i, so that the
#     registration and what readline inserts are tested too; with
#     bash-completion, the file is found by command name, as installed.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v bash >/dev/null 2>&1; then
	echo "bash is not installed"
	exit 77
fi
script="$top_builddir/completion/rankwatch"
if [ ! -f "$script" ]; then
	not_ok "make built $script"
	finish
	exit 1
fi
# bash-completion's main script, where the package installs it
bc=""
for f in "$(pkg-config --variable=datadir bash-completion 2>/dev/null)/bash-completion/bash_completion" \
    /usr/share/bash-completion/bash_completion /usr/local/share/bash-completion/bash_completion; do
	if [ -f "$f" ]; then
		bc=$f
		break
	fi
done
modes="plain"
if [ -n "$bc" ]; then
	modes="plain bash-completion"
else
	echo "# bash-completion is not installed (./bootstrap installs it): only without it"
fi

. "$top_srcdir/tests/tmux.sh"	# HOME and the XDG folders in $TMP, a tmux server
PATH="$top_builddir:$PATH"
export PATH

# what completes, in $D (the shells' working folder): a rule folder of
# one entry, a run's log and another file; and a user theme
D="$TMP/here"
mkdir -p "$D/rules" "$D/logs" "$XDG_DATA_HOME/rankwatch/themes"
cat > "$D/rules/zz-local-test.yaml" <<'Y'
id: zz-local-test
title: A local entry, for the completion test
category: environment
severity: low
summary: An entry of a --rules folder.
signatures:
  - id: zz-marker
    role: symptom
    pattern: 'zz completion test marker'
    examples: ['zz completion test marker one', 'and zz completion test marker two']
    counterexamples: ['nothing of the kind']
Y
out=$("$RW" --check-rules "$D/rules" 2>&1); rc=$?
check "the test's rule folder is valid (--check-rules)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || echo "$out"
sed 's/^name: .*/name: zz-mine/' "$top_srcdir/themes/dark.yaml" > "$XDG_DATA_HOME/rankwatch/themes/zz-mine.yaml"
: > "$D/logs/train-rank0.log"
: > "$D/run.log"

# 1. The function, called as bash calls it. driver.bash MODE LINE: LINE
# split into words as readline splits it (blanks between words; = is a
# word of its own; a blank at the end begins an empty word), the
# completion at its end, COMPREPLY one per line.
cat > "$TMP/driver.bash" <<'B'
mode=$1 line=$2
if [[ $mode == bash-completion ]]; then
	. "$BC_MAIN" || exit 3
fi
. "$COMP_SCRIPT" || exit 3
spec=$(complete -p rankwatch) || exit 4
[[ $spec =~ -F\ ([^ ]+) ]] || exit 4
COMP_WORDS=()
read -ra toks <<< "$line"
for t in "${toks[@]}"; do
	while [[ $t == *=* ]]; do
		[[ -n ${t%%=*} ]] && COMP_WORDS+=("${t%%=*}")
		COMP_WORDS+=("=")
		t=${t#*=}
	done
	[[ -n $t ]] && COMP_WORDS+=("$t")
done
[[ $line == *[[:blank:]] ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
cur=${COMP_WORDS[COMP_CWORD]}
[[ $cur == = ]] && cur=
COMPREPLY=()
"${BASH_REMATCH[1]}" "${COMP_WORDS[0]}" "$cur" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
B
export BC_MAIN="$bc" COMP_SCRIPT="$script"
comp() {	# comp MODE LINE: the completions, sorted, one per line
	(cd "$D" && bash --norc --noprofile -i "$TMP/driver.bash" "$1" "$2" \
	    </dev/null 2>>"$TMP/stderr.$1") | LC_ALL=C sort
}
is() {	# is WANT GOT: the same lines
	[ "$1" = "$2" ] && return 0
	echo "  want: $(echo "$1" | tr '\n' ' ')"
	echo "  got:  $(echo "$2" | tr '\n' ' ')"
	return 1
}
has() {	# has GOT WORD...: every WORD is a line of GOT
	h_got=$1; shift
	h_ok=0
	for h_w; do
		if ! printf '%s\n' "$h_got" | grep -qxF -- "$h_w"; then
			echo "  missing: $h_w"
			h_ok=1
		fi
	done
	return $h_ok
}
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }

# what must complete, from the tree: the long options of --help, the
# shipped themes, the samples
helpopts=$("$RW" --help | grep -o -- '--[a-z][a-z-]*' | LC_ALL=C sort -u)
themes=$(for f in "$top_srcdir"/themes/*.yaml; do basename "$f" .yaml; done)
samples=$(for d in "$top_srcdir"/samples/*/; do basename "$d"; done | LC_ALL=C sort)
check "--help names options" [ "$(echo "$helpopts" | wc -l)" -gt 10 ]
check "themes/ has the four shipped themes" has "$themes" dark light high-contrast mono
check "rules/ has nccl-watchdog-timeout" [ -f "$top_srcdir/rules/nccl-watchdog-timeout.yaml" ]

for m in $modes; do
	echo "# $m"
	check "$m: --fo<Tab> is --format" is "--format" "$(comp "$m" 'rankwatch --fo')"
	check "$m: --format <Tab>: the five formats" is "$(lines json jsonl markdown prometheus text)" \
	    "$(comp "$m" 'rankwatch --format ')"
	check "$m: --format=j<Tab>: json, jsonl" is "$(lines json jsonl)" "$(comp "$m" 'rankwatch --format=j')"
	check "$m: -r -f m<Tab>: markdown" is markdown "$(comp "$m" 'rankwatch -r -f m')"
	check "$m: -rf m<Tab>: markdown" is markdown "$(comp "$m" 'rankwatch -rf m')"
	check "$m: --format p<Tab>: prometheus" is prometheus "$(comp "$m" 'rankwatch --format p')"
	check "$m: --output <Tab>: paths" is "$D/run.log" "$(comp "$m" "rankwatch --output $D/run.")"
	check "$m: -ro <Tab>: paths" is "$D/run.log" "$(comp "$m" "rankwatch -ro $D/run.")"
	got=$(comp "$m" 'rankwatch --')
	# shellcheck disable=SC2086
	check "$m: --<Tab> offers every long option of --help" has "$got" $helpopts
	check "$m: ... and only options" sh -c '! printf "%s\n" "$1" | grep -qv "^--[a-z]"' _ "$got"
	check "$m: --show nccl-w<Tab> is nccl-watchdog-timeout" is nccl-watchdog-timeout \
	    "$(comp "$m" 'rankwatch --show nccl-w')"
	check "$m: --show zz<Tab>: nothing without the --rules folder" is "" "$(comp "$m" 'rankwatch --show zz')"
	for r in "--rules $D/rules" "--rules=$D/rules" "-R $D/rules" "-R$D/rules" "-rR $D/rules"; do
		check "$m: $r --show zz<Tab>: the folder's entry" is zz-local-test \
		    "$(comp "$m" "rankwatch $r --show zz")"
	done
	got=$(comp "$m" 'rankwatch --theme ')
	# shellcheck disable=SC2086
	check "$m: --theme <Tab>: the shipped themes" has "$got" $themes
	check "$m: ... and the user's (\$XDG_DATA_HOME/rankwatch/themes)" has "$got" zz-mine
	check "$m: ... once each" is "$(echo "$got" | sort -u)" "$got"
	check "$m: --theme=hi<Tab> is high-contrast" is high-contrast "$(comp "$m" 'rankwatch --theme=hi')"
	check "$m: --demo=<Tab>: the samples" is "$samples" "$(comp "$m" 'rankwatch --demo=')"
	check "$m: --demo=oom<Tab> is oom-collateral" is oom-collateral "$(comp "$m" 'rankwatch --demo=oom')"
	check "$m: --demo <Tab> is a path, not a sample (the argument is --demo=SAMPLE)" \
	    has "$(comp "$m" 'rankwatch --demo ')" logs rules run.log -
	check "$m: --poll=<Tab>: nothing" is "" "$(comp "$m" 'rankwatch --poll=')"
	check "$m: a path completes to a file" is "$D/logs/train-rank0.log" \
	    "$(comp "$m" "rankwatch --report $D/logs/tr")"
	check "$m: <Tab> in an empty word: files, folders and -" is "$(lines - logs rules run.log)" \
	    "$(comp "$m" 'rankwatch ')"
	check "$m: --rules <Tab>: folders only" is "$(lines logs rules)" "$(comp "$m" 'rankwatch --rules ')"
	check "$m: --check-rules <Tab>: folders only" is "$D/rules" "$(comp "$m" "rankwatch --check-rules $D/r")"
	check "$m: --version <Tab>: nothing" is "" "$(comp "$m" 'rankwatch --version ')"
	check "$m: after --, -<Tab> is a path" is "" "$(comp "$m" 'rankwatch -- -')"
	check "$m: nothing on stderr" sh -c '! grep -v "terminal process group\|no job control" "$1"' _ "$TMP/stderr.$m"
done

# 2. Tab in a real terminal.
# bash -i in tmux, in $D; PROMPT ends each prompt, the screen's last
# line with it is the line being edited
tab_session() {	# tab_session NAME COMMAND...: bash -i, COMMAND typed first
	ts_s=$1; shift
	T kill-session -t "$ts_s" 2>/dev/null
	T new-session -d -s "$ts_s" -x 200 -y 40 \
	    "cd '$D' && env TERM=xterm LANG=C INPUTRC=/dev/null HISTFILE=/dev/null PS1='PROMPT\$ ' \
	    BASH_COMPLETION_USER_DIR='$TMP/bc-user' PATH='$PATH' bash --norc --noprofile -i"
	wait_for "$ts_s" 'PROMPT$' >/dev/null
	keys "$ts_s" "$*" Enter
}
edited() { screen "$1" | grep 'PROMPT\$' | tail -n 1; }
line_is() {	# line_is SESSION WANT: the line being edited reads WANT (within 5 s)
	i=0
	while [ "$(edited "$1")" != "PROMPT\$ $2" ] && [ $i -lt 25 ]; do
		sleep 0.2; i=$((i + 1))
	done
	is "PROMPT\$ $2" "$(edited "$1")"
}
tab() {	# tab SESSION TEXT WANT: TEXT, Tab, X typed: the line must read WANT
	keys "$1" C-u "$2" Tab
	sleep 0.3
	keys "$1" X
	line_is "$1" "$3"
}
tab_session plain ". '$script'"
keys plain 'complete -p rankwatch' Enter
check "plain: complete -p rankwatch: registered by the script" wait_for plain "complete -F _rankwatch rankwatch"
check "plain: real Tab: --fo becomes --format and a space" tab plain 'rankwatch --fo' 'rankwatch --format X'
check "plain: real Tab: --show nccl-w" tab plain 'rankwatch --show nccl-w' 'rankwatch --show nccl-watchdog-timeout X'
check "plain: real Tab: a path" tab plain "rankwatch $D/logs/tr" "rankwatch $D/logs/train-rank0.log X"
check "plain: real Tab: --demo=oom" tab plain 'rankwatch --demo=oom' 'rankwatch --demo=oom-collateral X'
# Tab cycling through the matches: --demo, then --demo= with no space
keys plain C-u "bind 'TAB:menu-complete'" Enter
keys plain 'rankwatch --demo' Tab Tab
keys plain X
check "plain: menu-complete: --demo= is not followed by a space" line_is plain 'rankwatch --demo=X'
keys plain C-u
if [ -n "$bc" ]; then
	# as installed: bash-completion finds the file by the command's name
	mkdir -p "$TMP/bc-user/completions"
	cp "$script" "$TMP/bc-user/completions/rankwatch"
	tab_session bc ". '$bc'"
	check "bash-completion: real Tab: loaded by name, --fo becomes --format" \
	    tab bc 'rankwatch --fo' 'rankwatch --format X'
	check "bash-completion: real Tab: --theme=high" tab bc 'rankwatch --theme=high' 'rankwatch --theme=high-contrast X'
	check "bash-completion: real Tab: --rules DIR --show zz" tab bc "rankwatch --rules $D/rules --show zz" \
	    "rankwatch --rules $D/rules --show zz-local-test X"
	keys bc C-u 'complete -p rankwatch' Enter
	check "bash-completion: complete -p rankwatch: the one loaded" wait_for bc "complete -F _rankwatch rankwatch"
	keys bc C-u
fi
finish
