# lib.sh: shared by the shell tests. Sourced, not run.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
RW="$top_builddir/rankwatch"
export TZ=UTC
fails=0
passes=0
TMP=$(mktemp -d /tmp/rankwatch-sh.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ok() { passes=$((passes + 1)); echo "ok - $*"; }
not_ok() { fails=$((fails + 1)); echo "not ok - $*"; }
check() {	# check "description" command...
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" -eq 0 ]
}
