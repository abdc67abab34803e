# bash completion for rankwatch                            -*- shell-script -*-
#
# Installed as "rankwatch" in bash-completion's completions folder, which
# loads it the first time rankwatch is completed; or source it from
# ~/.bashrc. It works with the bash-completion package loaded
# (_init_completion, _filedir) and without it (COMP_WORDS and compgen).
#
# Entry ids (--show) and theme names (--theme) come from the rankwatch on
# the command line itself, the same one the line would run, with the
# --rules folders already on the line; the demo names (--demo=) are the
# folders of its samples, found as tui/main.c finds them.

# The installed data folder, tui/main.c's RW_PKGDATADIR: make writes the
# configured one into the installed copy of this file (Makefile.am).
_rankwatch_pkgdatadir()
{
	local pkgdatadir=/usr/local/share/rankwatch
	printf '%s\n' "$pkgdatadir"
}

# _rankwatch_dequote WORD: WORD without its quoting (one pair of
# enclosing quotes, or backslashes), in REPLY; nothing is evaluated.
_rankwatch_dequote()
{
	local w=$1
	case $w in
	\'*\') w=${w:1:${#w}-2} ;;
	\"*\") w=${w:1:${#w}-2} ;;
	[\'\"]*) w=${w:1} ;;
	*) w=${w//\\\\/$'\1'}; w=${w//\\/}; w=${w//$'\1'/\\} ;;
	esac
	REPLY=$w
}

# _rankwatch_unquote WORD: WORD as the command gets it: dequoted, and a
# leading ~ or ~/ expanded; in REPLY.
_rankwatch_unquote()
{
	_rankwatch_dequote "$1"
	case $REPLY in
	\~) REPLY=$HOME ;;
	\~/*) REPLY=$HOME/${REPLY#\~/} ;;
	esac
}

# The rankwatch of the line, unquoted, in REPLY.
_rankwatch_cmd()
{
	_rankwatch_unquote "${words[0]}"
}

# _rankwatch_shipped CMD WHAT: the folder of shipped data WHAT (themes,
# samples) that rankwatch CMD reads, in REPLY; found as tui/main.c's
# shipped() finds it: the one beside the binary (a build tree), the one
# of the source tree named in the rankwatch-srcdir file beside it (a
# build outside the source tree), else the installed one.
_rankwatch_shipped()
{
	local exe src
	exe=$(type -P -- "$1" 2>/dev/null)
	if [[ -n $exe ]]; then
		exe=$(readlink -f -- "$exe" 2>/dev/null) || exe=$(type -P -- "$1")
		[[ $exe == */* ]] || exe=./$exe
		exe=${exe%/*}
		if [[ -d $exe/$2 ]]; then
			REPLY=$exe/$2
			return
		fi
		if [[ -r $exe/rankwatch-srcdir ]] && read -r src < "$exe/rankwatch-srcdir" &&
		    [[ $src == /* && -d $src/$2 ]]; then
			REPLY=$src/$2
			return
		fi
	fi
	REPLY=$(_rankwatch_pkgdatadir)/$2
}

# _rankwatch_column CMD ARGS...: the first column of each line CMD ARGS
# print (stderr dropped), in the array names; false if CMD fails.
_rankwatch_column()
{
	local out first rest
	out=$("$@" 2>/dev/null) || return 1
	names=()
	while read -r first rest; do
		[[ -n $first ]] && names+=("$first")
	done <<< "$out"
	return 0
}

# Entry ids: rankwatch --list-rules, with the --rules folders of the line
# (--rules DIR, --rules=DIR, -R DIR, -RDIR), in names.
_rankwatch_entries()
{
	local i w dir args=() REPLY
	for ((i = 1; i < ${#words[@]}; i++)); do
		((i == cword)) && continue
		w=${words[i]}
		[[ $w == -- ]] && break
		if [[ $w == --rules=?* ]]; then
			dir=${w#--rules=}
		elif [[ $w =~ ^-[rhVw]*R(.+)$ ]]; then
			dir=${BASH_REMATCH[1]}
		elif [[ $w == --rules || $w =~ ^-[rhVw]*R$ ]]; then
			((i + 1 < ${#words[@]} && i + 1 != cword)) || continue
			dir=${words[++i]}
		else
			continue
		fi
		_rankwatch_unquote "$dir"
		args+=("--rules=$REPLY")
	done
	_rankwatch_cmd
	_rankwatch_column "$REPLY" "${args[@]}" --list-rules
}

# Theme names, in names: rankwatch --list-themes; if that rankwatch has
# no such option, the built-in mono and the *.yaml names of its theme
# folders (the shipped one, then $XDG_DATA_HOME/rankwatch/themes).
_rankwatch_themes()
{
	local cmd d f REPLY dirs=()
	_rankwatch_cmd
	cmd=$REPLY
	_rankwatch_column "$cmd" --list-themes && return
	names=(mono)
	_rankwatch_shipped "$cmd" themes
	dirs=("$REPLY")
	if [[ ${XDG_DATA_HOME-} == /* ]]; then
		dirs+=("$XDG_DATA_HOME/rankwatch/themes")
	elif [[ -n ${HOME-} ]]; then
		dirs+=("$HOME/.local/share/rankwatch/themes")
	fi
	for d in "${dirs[@]}"; do
		for f in "$d"/*.yaml; do
			[[ -f $f ]] || continue
			f=${f##*/}
			[[ $f == .* ]] || names+=("${f%.yaml}")
		done
	done
}

# Demo names, in names: the folders of the samples that rankwatch --demo
# replays.
_rankwatch_demos()
{
	local f REPLY
	_rankwatch_cmd
	_rankwatch_shipped "$REPLY" samples
	names=()
	for f in "$REPLY"/*/; do
		[[ -d $f ]] || continue
		f=${f%/}
		names+=("${f##*/}")
	done
}

# COMPREPLY: the names that start with cur, once each.
_rankwatch_reply()
{
	local n r
	COMPREPLY=()
	for n in "${names[@]}"; do
		[[ $n == "$cur"* ]] || continue
		for r in "${COMPREPLY[@]}"; do
			[[ $r == "$n" ]] && continue 2
		done
		COMPREPLY+=("$n")
	done
}

# Paths, files and folders; with -d, folders only.
_rankwatch_paths()
{
	if declare -F _filedir >/dev/null; then
		_filedir "$@"
		return
	fi
	local REPLY
	compopt -o filenames 2>/dev/null
	_rankwatch_dequote "$cur"	# compgen expands ~ itself
	if [[ ${1-} == -d ]]; then
		mapfile -t COMPREPLY < <(compgen -d -- "$REPLY")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$REPLY")
	fi
}

# Without bash-completion: cur, prev, words, cword and split as
# _init_completion -s sets them, from COMP_WORDS and $1 (the word up to
# the cursor, bash's $2). bash splits --opt=value into three words,
# --opt = value, and with the cursor just after the = completes the "="
# word as an empty one: they are joined again.
_rankwatch_init()
{
	local i w n=${#COMP_WORDS[@]}
	words=()
	cword=0
	for ((i = 0; i < n; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $w == = && ${words[-1]} == --[a-z]* && ${words[-1]} != *=* ]]; then
			words[-1]+="="
			if ((i == COMP_CWORD)); then
				words[-1]+=$1
			elif ((i + 1 < n && i + 1 <= COMP_CWORD)); then
				((i++))
				if ((i == COMP_CWORD)); then
					words[-1]+=$1
				else
					words[-1]+=${COMP_WORDS[i]}
				fi
			fi
		else
			((i == COMP_CWORD)) && w=$1
			words+=("$w")
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	cur=${words[cword]-}
	prev=${words[cword - 1]-}
	split=false
	if [[ $cur == --?*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
		split=true
	fi
	COMPREPLY=()
}

_rankwatch()
{
	local cur prev words cword split names=() i
	if declare -F _init_completion >/dev/null; then
		_init_completion -s || return
	else
		_rankwatch_init "${2-}"
	fi

	# after --, only paths
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			_rankwatch_paths
			[[ -n $cur ]] || COMPREPLY+=(-)
			return
		fi
	done

	# -rf FORMAT, -wR DIR: short options bundled, the last takes the word
	[[ $prev =~ ^-[rhVw]+([fRjo])$ ]] && prev=-${BASH_REMATCH[1]}
	case $prev in
	--format | -f)
		names=(text json markdown jsonl prometheus)
		_rankwatch_reply
		return
		;;
	--rules | -R)
		_rankwatch_paths -d
		return
		;;
	--output | -o)
		_rankwatch_paths
		return
		;;
	--jobs | -j)
		names=($(seq 1 "$(nproc 2>/dev/null || echo 1)"))
		_rankwatch_reply
		return
		;;
	--cmd)
		# a command line: the commands on PATH for its first word
		compopt -o default 2>/dev/null
		COMPREPLY=($(compgen -c -- "$cur"))
		return
		;;
	--theme)
		_rankwatch_themes
		_rankwatch_reply
		return
		;;
	--show)
		_rankwatch_entries
		_rankwatch_reply
		return
		;;
	--demo)
		if [[ $split == true ]]; then
			_rankwatch_demos
			_rankwatch_reply
			return
		fi
		;;
	--help | -h | --version | -V)
		return
		;;
	esac
	# the =VALUE of --poll, or of an option that takes none
	[[ $split == true ]] && return

	if [[ $cur == -* ]]; then
		names=(--report --format --output --rules --theme --all-attempts --jobs --cmd --all-events
			--watch --poll --poll= --demo --demo= --replay --check-rules
			--list-rules --list-themes --show --errors --help --version)
		[[ $cur == - ]] && names+=(-)
		_rankwatch_reply
		for i in "${COMPREPLY[@]}"; do
			if [[ $i == *= ]]; then
				compopt -o nospace 2>/dev/null
				break
			fi
		done
		return
	fi

	# rankwatch --check-rules [DIR...]: folders
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == --check-rules ]]; then
			_rankwatch_paths -d
			return
		fi
	done
	# PATH...: a run's folder, log files, or - for standard input
	_rankwatch_paths
	[[ -n $cur ]] || COMPREPLY+=(-)
} &&
	complete -F _rankwatch rankwatch

# ex: filetype=sh
