/* tui.h: the console. One loop (tui.c) reads keys, feeds the engine a
 * slice of bytes between key presses, and draws the view on top of a stack
 * of views. Each view is an ops struct (one file each); its key handler
 * returns what must happen next, and the loop does it. Views ask for
 * theme roles, never colours. */
#ifndef RW_TUI_H
#define RW_TUI_H

#include "curses.h"
#include "imap.h"
#include "keys.h"
#include "rulebook.h"
#include "run.h"
#include "theme.h"
#include "ticks.h"

struct pattern;

/* What a key handler asks the loop to do. */
#define HR_NONE		0x00
#define HR_REDRAW	0x01
#define HR_POP		0x02	/* close this view */
#define HR_QUIT		0x04
#define HR_UNHANDLED	0x08	/* let the loop try its global keys */

struct tui;
struct view;

struct view_ops {
	const char	*name;
	void		 (*draw)(struct tui *t, struct view *v);
	int		 (*key)(struct tui *t, struct view *v, enum action a, int code);
	void		 (*release)(struct view *v);
	/* the engine has new data (optional) */
	void		 (*update)(struct tui *t, struct view *v);
	/* work in slices between key presses (a search): 1 while there is
	 * more, 0 when it ended in this slice, -1 when there is none (optional) */
	int		 (*work)(struct tui *t, struct view *v);
	const char	*hints;		/* the key bar at the bottom */
};

struct view {
	const struct view_ops	*ops;
	void			*data;
};

struct tui {
	struct run		*run;
	const struct rulebook	*rb;
	const char *const	*paths;
	size_t			 npaths;
	struct view		 stack[16];
	int			 depth;
	struct theme_set	 themes;	/* v[0] is the built-in mono theme */
	size_t			 theme;		/* the current one, in themes */
	int			 colors;	/* 0: monochrome */
	int			 utf8;
	int			 loading;	/* the first pass is not finished */
	int			 watching;	/* following the files (see tui_main) */
	int			 dirty;		/* the engine changed since the last analysis */
	const struct analysis	*an;
	struct ticks		*ticks;
	char			 message[512];	/* shown once in the status line */
	int			 message_error;
	char			*last_search;
	int			 exit_status;	/* 130 after ^C */
	struct imap		 read_ranks;	/* loading: ranks whose own files are read */
	int			 unread_multi;	/* loading: a file of many ranks is not read yet */
	MEVENT			 mouse;		/* the last mouse event, for code KEY_MOUSE */
};

/* Mouse: a click selects, a double click opens, the wheel scrolls. Views
 * get code KEY_MOUSE with t->mouse filled; this turns the wheel into
 * ACT_UP / ACT_DOWN and a double click into ACT_OPEN after a select. */
#define MOUSE_CLICK(t)	((t)->mouse.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))
#define MOUSE_DOUBLE(t)	((t)->mouse.bstate & BUTTON1_DOUBLE_CLICKED)

/* tui.c */
/* watching: 0 read once, 1 follow with inotify, >1 follow polling every that many ms */
int	tui_main(struct run *r, const struct rulebook *rb, const char *const *paths,
	    size_t npaths, const char *theme_name, char **theme_dirs, size_t nthemedirs,
	    int watching);
void	tui_push(struct tui *t, const struct view_ops *ops, void *data);
void	tui_message(struct tui *t, int error, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Ask a line of text in the status line; NULL when cancelled. */
char	*tui_prompt(struct tui *t, const char *prompt, const char *initial);
/* Ask a search pattern: 1 and *out, 0 when left empty, -1 when cancelled
 * or not a valid expression (said in the status line). */
int	tui_ask_pattern(struct tui *t, const char *prompt, const char *initial,
	    struct pattern **out);
void	tui_role(struct tui *t, enum theme_role r);	/* attrset */
chtype	tui_attr(struct tui *t, enum theme_role r);
/* Draw s (n bytes, UTF-8) at (y, x) cut at width cells, escaping what a
 * log could use to drive the terminal; returns cells used. */
int	tui_put(struct tui *t, int y, int x, int width, const char *s, size_t n,
	    enum theme_role role);
int	tui_puts(struct tui *t, int y, int x, int width, const char *s, enum theme_role role);
/* The bytes of s[0..n) that tui_put would show in width cells (*cells:
 * the cells they take). */
size_t	tui_fit(struct tui *t, const char *s, size_t n, int width, int *cells);
/* tui_put of s[skip..n), with what pat matches in s marked in the search
 * role (pat may be NULL). */
int	tui_put_marked(struct tui *t, int y, int x, int width, const char *s, size_t n,
	    size_t skip, enum theme_role role, struct pattern *pat);
/* Fill the rest of a line from x with blanks in role. */
void	tui_fill(struct tui *t, int y, int x, int width, enum theme_role role);
/* A horizontal rule with a title. */
void	tui_rule(struct tui *t, int y, const char *title);
enum theme_role tui_rank_role(enum rank_role r);
enum theme_role tui_severity_role(const char *sev);
/* export.c: write the incident report with the checklist state; its path
 * in *out, or -1 and *why. */
int	tui_export(struct tui *t, char **out, char **why);
void	tui_analyse(struct tui *t);
/* Is rank's log still being read (loading, and not all of its lines seen)?
 * Such a rank has no role yet: it is not silent, suspect or healthy. */
int	tui_rank_reading(const struct tui *t, int rank);

/* The views. */
extern const struct view_ops overview_ops;
extern const struct view_ops log_ops;
extern const struct view_ops entry_ops;
extern const struct view_ops browser_ops;
extern const struct view_ops help_ops;
extern const struct view_ops text_ops;

void	*overview_new(struct tui *t);
/* A log view of rank (-1: all ranks merged) positioned at the first line at
 * or after sec (0: the top); file/line: position on that line instead. */
void	*log_new(struct tui *t, int rank, int64_t sec, const char *file,
	    unsigned long line);
/* A rank's log at its first event, or at its last line when it has none
 * (a silent rank in a hang). */
void	*log_new_rank(struct tui *t, int rank);
void	*entry_new(struct tui *t, const struct entry *e);
void	*browser_new(struct tui *t);
void	*help_new(struct tui *t);
/* A scrollable page of plain text (takes s). */
void	*text_new(struct tui *t, const char *title, char *s);

#endif
