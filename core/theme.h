/* theme.h: colour themes as data. A theme maps semantic roles (what a
 * thing is: the initiating rank, a collateral rank, the selection...) to a
 * foreground, a background and attributes. Views ask for roles, never for
 * colours; the console turns a theme into curses pairs. Themes are YAML
 * files in themes/ and the user's XDG data dir; adding one touches no C. */
#ifndef RW_THEME_H
#define RW_THEME_H

#include "notes.h"

#define THEME_ROLES(X)			\
	X(NORMAL, "normal")		\
	X(HEADER, "header")		\
	X(TITLE, "title")		\
	X(DIM, "dim")			\
	X(STATUS, "status")		\
	X(SELECTION, "selection")	\
	X(FAILURE, "verdict-failure")	\
	X(HANG, "verdict-hang")		\
	X(HEALTHY_VERDICT, "verdict-healthy") \
	X(INITIATING, "initiating")	\
	X(COLLATERAL, "collateral")	\
	X(SUSPECT, "suspect")		\
	X(SILENT, "silent")		\
	X(HEALTHY, "healthy")		\
	X(SYMPTOM, "symptom")		\
	X(ACTIVITY, "activity")		\
	X(CRITICAL, "severity-critical")	\
	X(HIGH, "severity-high")	\
	X(MEDIUM, "severity-medium")	\
	X(LOW, "severity-low")		\
	X(SEEN, "seen")			\
	X(CHECKED, "checked")		\
	X(SEARCH, "search")		\
	X(LINK, "link")			\
	X(ESCAPED, "escaped")

enum theme_role {
#define X(e, s) TR_##e,
	THEME_ROLES(X)
#undef X
	TR__COUNT
};

#define THEME_BOLD	0x01
#define THEME_UNDERLINE	0x02
#define THEME_REVERSE	0x04
#define THEME_DIM	0x08
#define THEME_ITALIC	0x10

/* Colours: -1 terminal default, 0-7 the basic eight, 8-15 their bright
 * forms, 16-255 the 256-colour cube. */
struct theme_style {
	short		fg, bg;
	unsigned	attrs;
	int		set;
};

struct theme {
	char			*name;
	char			*file;
	struct theme_style	 style[TR__COUNT];
};

const char	*theme_role_name(enum theme_role r);
/* Load one theme file (all or nothing). Roles it leaves out take
 * "normal"'s style. NULL with a note on error. */
struct theme	*theme_load(const char *path, struct notes *ns);
/* The same from text[0..len), read from path (named in notes). */
struct theme	*theme_parse(const char *path, const char *text, size_t len,
		    struct notes *ns);
void		 theme_free(struct theme *t);
/* The built-in monochrome theme: attributes only (NO_COLOR, 2 colours). */
struct theme	*theme_mono(void);
/* The themes of some folders: every *.yaml theme in each (a later
 * folder's theme replaces an earlier one of the same name), sorted by
 * name, after the built-in monochrome theme at v[0]. A file that does not
 * load is a note and is left out. */
struct theme_set {
	struct theme	**v;
	size_t		  n, cap;
};
void		 theme_set_load(struct theme_set *ts, char *const *dirs, size_t ndirs,
		    struct notes *ns);
void		 theme_set_release(struct theme_set *ts);
/* Colour name ("red", "bright-blue", "default", "196") to a number; -2 if unknown. */
int		 theme_color(const char *name);

#endif
