/* rows.h: the overview's rows: which ranks are shown (the filter), in
 * what order (the sort), and which one the cursor is on. Until the user
 * moves it, the cursor follows what matters most (the initiating rank, or
 * the first suspect); once moved, it stays on its rank however the rows
 * are re-sorted by a new analysis. No curses: the unit tests run it. */
#ifndef RW_TUI_ROWS_H
#define RW_TUI_ROWS_H

#include "incident.h"

enum row_sort { SORT_ROLE, SORT_RANK, SORT_FIRST, SORT__COUNT };
enum row_filter { FILTER_ALL, FILTER_NO_COLLATERAL, FILTER_TROUBLE, FILTER_EVENTS,
	FILTER__COUNT };
extern const char *const row_sort_names[SORT__COUNT];
extern const char *const row_filter_names[FILTER__COUNT];

struct rows {
	int		*v;		/* ranks, in display order */
	size_t		 n;
	int		 sel;		/* the cursor's row */
	enum row_sort	 sort;
	enum row_filter	 filter;
	int		 moved;		/* the user moved the cursor */
};

/* Does rank's log still have to be read to the end? (NULL: no) */
typedef int	(*rows_reading_fn)(const void *arg, int rank);

/* The rows of an analysed incident, the cursor placed as above. */
void	rows_build(struct rows *r, const struct incident *in, const struct analysis *an,
	    rows_reading_fn reading, const void *arg);
/* The cursor on rank's row, if it is shown; 0 when it is not. */
int	rows_select(struct rows *r, int rank);
void	rows_release(struct rows *r);

#endif
