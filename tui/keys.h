/* keys.h: every key binding, its action and its help line, in one table.
 * The dispatcher and the help screen both read it, so they cannot drift.
 *   X(action, help-keys, help, key...)  (keys end with 0) */
#ifndef RW_TUI_KEYS_H
#define RW_TUI_KEYS_H

#define KEY_TABLE(X)								\
	X(UP,       "k Up",        "move up",                          'k', KEY_UP, 0)	\
	X(DOWN,     "j Down",      "move down",                        'j', KEY_DOWN, 0)	\
	X(LEFT,     "h Left",      "earlier in time / scroll left",    'h', KEY_LEFT, 0)	\
	X(RIGHT,    "l Right",     "later in time / scroll right",     'l', KEY_RIGHT, 0)	\
	X(PGUP,     "PgUp ^B",     "page up",                          KEY_PPAGE, 2, 0)	\
	X(PGDN,     "PgDn ^F",     "page down",                        KEY_NPAGE, 6, 0)	\
	X(TOP,      "g Home",      "go to the top",                    'g', KEY_HOME, 0)	\
	X(BOTTOM,   "G End",       "go to the bottom",                 'G', KEY_END, 0)	\
	X(LINE0,    "0",           "log view: back to the start of the lines", '0', 0)	\
	X(LINEEND,  "$",           "log view: to the end of the selected line", '$', 0)	\
	X(WRAP,     "w",           "log view: wrap long lines, or cut them (less -S)", 'w', 0)	\
	X(OPEN,     "Enter",       "open what is selected (a log line: show it whole)", '\n', '\r', KEY_ENTER, 0)	\
	X(BACK,     "q Esc",       "go back (q quits from the overview)", 'q', 27, 0)	\
	X(QUIT,     "Q",           "quit at once",                     'Q', 0)	\
	X(INTR,     "^C ^\\",     "stop a search; else quit (status 130)", 3, 28, 0)	\
	X(SUSPEND,  "^Z",          "suspend (fg brings it back)",      26, 0)	\
	X(HELP,     "?",           "this help",                        '?', KEY_F(1), 0)	\
	X(FIRST,    "f",           "jump to the first failure",        'f', 0)	\
	X(SEARCH,   "/",           "search",                           '/', 0)	\
	X(NEXT,     "n",           "next match",                       'n', 0)	\
	X(PREV,     "N",           "previous match",                   'N', 0)	\
	X(TICK,     "Space",       "tick / untick the checklist step", ' ', 0)	\
	X(NOTE,     "a",           "add a note to the checklist step", 'a', 0)	\
	X(TAB,      "Tab",         "timeline / diagnoses; next item in an entry", '\t', 0)	\
	X(BACKTAB,  "S-Tab",       "previous item in an entry",        KEY_BTAB, 0)	\
	X(ZOOMIN,   "+ =",         "zoom in on time",                  '+', '=', 0)	\
	X(ZOOMOUT,  "-",           "zoom out",                         '-', 0)	\
	X(FILTER,   "F",           "filter: ranks shown (overview: all, not collateral, not healthy, with events), lines shown (log)", 'F', 0)	\
	X(SORT,     "s",           "sort rows: by rank, by role, by first event", 's', 0)	\
	X(COMPACT,  "c",           "compact grid, one character per rank", 'c', 0)	\
	X(NEXTEV,   "] }",         "next matched line (log); next checklist step (entry)", ']', '}', 0)	\
	X(PREVEV,   "[ {",         "previous matched line or checklist step", '[', '{', 0)	\
	X(FOLLOW,   "P",           "follow the end of the log",        'P', 0)	\
	X(MERGE,    "m",           "log view: this rank / all ranks merged by time", 'm', 0)	\
	X(BROWSE,   "b",           "the encyclopedia",                 'b', 0)	\
	X(ERRORS,   "E",           "every error message, side by side", 'E', 0)	\
	X(THEME,    "t",           "next colour theme",                't', 0)	\
	X(EXPORT,   "e",           "write the incident report (Markdown)", 'e', 0)	\
	X(REDRAW,   "^L",          "redraw the screen",                12, 0)

enum action {
	ACT_NONE,
#define X(a, k, h, ...) ACT_##a,
	KEY_TABLE(X)
#undef X
	ACT__COUNT
};

struct keybinding {
	enum action	 action;
	const char	*keys;
	const char	*help;
	int		 codes[4];
};

extern const struct keybinding keytable[];
extern const size_t nkeytable;
enum action	keys_action(int code);

#endif
