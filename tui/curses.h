/* curses.h: the one place that includes curses. Only tui/ includes this. */
#ifndef RW_TUI_CURSES_H
#define RW_TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#endif
