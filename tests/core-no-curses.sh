#!/bin/sh
# core/ never includes or links curses; the unit tests run without ncurses.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

check "no curses include in core/" sh -c '! grep -rEn "#[[:space:]]*include[[:space:]]*[<\"](n?curses|ncursesw/|term\.h|panel\.h)" "$1/core"' _ "$top_srcdir"
check "no curses symbol in librwcore.a" sh -c '! nm "$1/core/librwcore.a" | grep -Eq " U (initscr|newwin|wrefresh|endwin|wgetch)$"' _ "$top_builddir"
for t in test_line test_incident test_report; do
	check "tests/$t does not link ncurses" sh -c '! ldd "$1" | grep -q curses' _ "$top_builddir/tests/$t"
done
finish
