/* page.h: a scrollable page of rows, what the entry view, the encyclopedia
 * browser, the help screen and plain text pages share. A view builds its
 * rows (text wrapped to the screen, each with a role and what Enter does
 * on it) and may take keys before the page does. The selection moves over
 * what can be acted on and skips blank rows; / searches (smart case, a
 * regular expression) and marks only the match. */
#ifndef RW_TUI_PAGE_H
#define RW_TUI_PAGE_H

#include "search.h"
#include "tui.h"

enum rowkind {
	ROW_TEXT,
	ROW_STEP,	/* a checklist step (idx) */
	ROW_NOTE,	/* a step's note (idx) */
	ROW_EVENT,	/* Enter jumps to a log line */
	ROW_RELATED,	/* Enter opens another entry */
	ROW_RANK,	/* Enter opens rank idx's log */
};

struct row {
	char			*text;
	enum theme_role		 role;
	enum rowkind		 kind;
	int			 idx;
	int			 first;		/* the first row of its item */
	const struct event	*ev;
	const struct entry	*entry;
};

struct page;
typedef void	(*page_build_fn)(struct tui *t, struct page *p);
/* A view's own keys, before the page's: HR_UNHANDLED passes them on. */
typedef int	(*page_key_fn)(struct tui *t, struct page *p, enum action a, int code);

struct page {
	char			*title;
	struct row		*rows;
	size_t			 nrows, cap;
	int			 top, sel;
	int			 placed;	/* the selection was put on its first row */
	struct pattern		*search;
	page_build_fn		 build;
	page_key_fn		 key;
	const struct entry	*e;		/* the entry view's entry */
	char			*text;		/* a text page's text */
	char			*filter;	/* the browser's filter */
};

struct page	*page_new(const char *title, page_build_fn build, page_key_fn key);
void		 page_add(struct page *p, const char *text, enum theme_role role,
		    enum rowkind kind, int idx);
/* text wrapped to the screen: the first row starts with first, the others
 * with indent */
void		 page_add_wrapped(struct page *p, const char *text, const char *first,
		    const char *indent, enum theme_role role, enum rowkind kind, int idx);
void		 page_heading(struct page *p, const char *h);
void		 page_bullets(struct page *p, const char *h, const struct strlist *l);
void		 page_clear(struct page *p);
/* Put the selection on row i, a third of the way down the screen when it
 * is not on it already (a jump: the rows after it matter more). */
void		 page_land(struct page *p, int i);
/* Can Enter, Space or a note act on this row? */
int		 page_actionable(const struct row *r);
void		 page_draw(struct tui *t, struct view *v);
int		 page_key(struct tui *t, struct view *v, enum action a, int code);
void		 page_release(struct view *v);

#endif
