/* keytable.c: the console's key table (tui/keys.h), one entry a line:
 * its help keys and its help text, separated by a tab, in table order.
 * tests/man.sh compares it with the KEYS section of rankwatch(1).
 * Only the help strings are expanded: the key codes of the variadic part
 * (KEY_UP, KEY_F(1)...) are dropped unexpanded, so no curses header is
 * needed, and none may come in. */
#include <stdio.h>

#include "../tui/keys.h"

#if defined(KEY_UP) || defined(NCURSES_VERSION) || defined(OK)
#error "keytable.c must build without curses"
#endif

int
main(void)
{
#define X(a, k, h, ...) \
	if (printf("%s\t%s\n", k, h) < 0) \
		return 1;
	KEY_TABLE(X)
#undef X
	return fflush(stdout) == 0 ? 0 : 1;
}
