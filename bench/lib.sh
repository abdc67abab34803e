# bench/lib.sh: what the benchmark scripts share (sourced, not run): the
# tools they need, a snapshot of the binary with its rulebook, the machine
# they ran on, the signature patterns converted for ripgrep, timed runs and
# medians. Set before sourcing: BENCH_NAME (for messages), here, top, OUT, RW.

die() { echo "$BENCH_NAME: $*" >&2; exit 2; }

# ---------------------------------------------------------------- tools
need=()
command -v rg >/dev/null || need+=(ripgrep)
[ -x "$TIME" ] || need+=(time)
command -v strace >/dev/null || need+=(strace)
if [ ${#need[@]} -gt 0 ]; then
	echo "$BENCH_NAME: installing ${need[*]}" >&2
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${need[@]}" >/dev/null 2>&1; } ||
		die "could not install ${need[*]}"
	else
		die "please install: ${need[*]}"
	fi
fi
[ -x "$RW" ] || die "no rankwatch binary at $RW (build it: make -j2)"
command -v python3 >/dev/null || die "python3 is needed"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# snapshot of the binary and its rulebook
RWSRC=$RW
rules_src=$(dirname "$RW")/rules
rm -rf "$OUT/snapshot"
mkdir -p "$OUT/snapshot"
cp "$RW" "$OUT/snapshot/rankwatch"
[ -d "$rules_src" ] && cp -r "$rules_src" "$OUT/snapshot/rules"
RW=$OUT/snapshot/rankwatch

# ---------------------------------------------------------------- machine
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1)
echo "== machine"
printf '  nproc        %s\n' "$(nproc)"
printf '  cpu          %s\n' "${cpu:-unknown}"
printf '  memory       %s MiB\n' "$(awk '/^MemTotal/ {print int($2/1024)}' /proc/meminfo)"
printf '  kernel       %s\n' "$(uname -r)"
printf '  rankwatch    %s (copy of %s, sha256 %s, %s rule files)\n' "$("$RW" --version 2>&1 | head -1)" "$RWSRC" \
	"$(sha256sum "$RW" | cut -c1-12)" "$(ls "$OUT/snapshot/rules"/*.yaml 2>/dev/null | wc -l)"
printf '  build        %s\n' "$(sed -n 's/^CFLAGS = //p' "$top/Makefile" 2>/dev/null | head -1)"
printf '  ripgrep      %s\n' "$(rg --version 2>/dev/null | head -1)"
printf '  rg PCRE2     %s\n' "$(rg --pcre2-version 2>/dev/null | head -1 || echo none)"
printf '  load avg     %s (at start)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '  out dir      %s\n' "$OUT"

# ---------------------------------------------------------------- patterns
pat_pcre=$OUT/patterns.pcre2
pat_rg=$OUT/patterns.rg
pat_rgp=$OUT/patterns.rg-pcre2
"$RW" --dump-patterns > "$pat_pcre"
npat=$(grep -c . "$pat_pcre")
conv=$(python3 "$here/benchtools.py" rg-patterns "$pat_pcre" "$pat_rg" "$pat_rgp")
read -r nkeep ndrop <<<"$(head -1 <<<"$conv")"
# make sure each rg variant compiles its pattern set (exit 2 = error)
set +e
rg --no-config -c -f "$pat_rg" - </dev/null >/dev/null 2>"$OUT/rg-compile.err"; rc=$?
rg --no-config -P -c -f "$pat_rgp" - </dev/null >/dev/null 2>"$OUT/rgP-compile.err"; rcp=$?
set -e
[ $rc -le 1 ] || die "rg rejects $pat_rg: $(head -3 "$OUT/rg-compile.err")"
# rg -P joins the patterns into one PCRE2 regex, which has a size limit:
# past it rg -P cannot run this rulebook at all, and is not timed
rgp_ok=1
[ $rcp -le 1 ] || rgp_ok=0
echo
echo "== patterns (rankwatch --dump-patterns): $npat"
echo "  (the signatures read by the text; those run only on the lines a logger marked with a level are left out: rg cannot tell a line's level)"
if [ $rgp_ok = 1 ]; then
	echo "  rg -P (PCRE2, JIT): all $npat, capture-group names made unique per pattern (timed on a sample, see BENCH_PCRE_MIB)"
else
	echo "  rg -P (PCRE2, JIT): rejects the $npat patterns as one regex ($(head -1 "$OUT/rgP-compile.err" | cut -c1-120)): not timed"
fi
echo "  rg (Rust regex):    $nkeep, with (?<name> written (?P<name>; $ndrop PCRE2-only patterns left out:"
tail -n +2 <<<"$conv"

# rg given a folder skips what a .gitignore above it ignores, and this tree
# ignores *.log and bench/out/: under the default BENCH_OUT, `rg DIR` reads
# no file at all (exit 1, "no match", in a few ms).  rankwatch reads every
# file, so rg searching a folder must too.  (Files named on the command line
# are always searched.)
rg_dir=(rg --no-config --no-ignore)

# ---------------------------------------------------------------- helpers
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
maxof() { sort -g | tail -1; }

# run_timed OUTFILE CMD...: one timed run; appends "seconds maxrss_kib" to
# OUTFILE, and the CPU seconds it used (user + system) to OUTFILE.cpu
run_timed() {
	local out=$1; shift
	local t0 t1 rc tf
	tf=$(mktemp)
	t0=$EPOCHREALTIME
	set +e
	"$TIME" -f '%e %M %U %S' -o "$tf" "$@" >/dev/null 2>"$tf.err"
	rc=$?
	set -e
	t1=$EPOCHREALTIME
	# rankwatch: 0 healthy, 1 failure found; rg: 0 matches, 1 none
	if [ $rc -gt 1 ]; then
		echo "$BENCH_NAME: '$*' failed (exit $rc):" >&2; head -5 "$tf.err" >&2
		rm -f "$tf" "$tf.err"; return 2
	fi
	# GNU time's last line: elapsed, max RSS, user, system
	tail -1 "$tf" | awk -v a="$t0" -v b="$t1" -v cpu="$out.cpu" \
	    '{ printf "%.3f %s\n", b - a, $2; printf "%.2f\n", $3 + $4 >> cpu }' >> "$out"
	rm -f "$tf" "$tf.err"
}

# run_split OUTFILE CMD... -- FILE...: CMD started $(nproc) times at once,
# each on its share of the files (benchtools.py split); appends "seconds
# summed_maxrss_kib" to OUTFILE
run_split() {
	local out=$1; shift
	python3 "$here/benchtools.py" split "$(nproc)" "$@" >> "$out" ||
	    { echo "$BENCH_NAME: split run of '$1' failed" >&2; return 2; }
}

# fd_peak OUTFILE RUNDIR CMD...: "max fds open at once, max run files open at once"
fd_peak() {
	local st=$1 dir=$2; shift 2
	strace -f -qq -o "$st" \
		-e trace=open,openat,openat2,creat,close,close_range,dup,dup2,dup3,fcntl,pipe,pipe2,socket,socketpair,eventfd2,epoll_create1,memfd_create \
		"$@" >/dev/null 2>&1 || true
	python3 "$here/benchtools.py" fdmax "$st" "$dir"
}

# gen_run DIR RANKS SIZE: generate the run into DIR with genrun.py, or reuse
# it when it was made by the same genrun.py with the same parameters
gen_run() {
	local dir=$1 ranks=$2 size=$3 stamp g0
	stamp="ranks=$ranks size=$size genrun=$(sha256sum "$here/genrun.py" | cut -c1-16)"
	if [ -f "$dir.stamp" ] && [ "$(cat "$dir.stamp")" = "$stamp" ] && [ -d "$dir" ]; then
		echo "  reusing $dir"
		return
	fi
	rm -rf "$dir" "$dir.stamp"
	g0=$EPOCHREALTIME
	python3 "$here/genrun.py" --ranks "$ranks" --size "$size" "$dir" 2>&1 | sed 's/^/  /'
	echo "  generated in $(awk -v a="$g0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}') s"
	echo "$stamp" > "$dir.stamp"
}
