/* timeline.h: the rank timeline laid out into cells, without a terminal.
 * A view is a time window cut into columns; each rank's row gets, per
 * column, how busy its log was and the strongest event in that slice. The
 * console draws the cells; tests check them. */
#ifndef RW_TIMELINE_H
#define RW_TIMELINE_H

#include <stdint.h>

#include "incident.h"

enum cell {
	CELL_NONE,		/* before the rank's first line or after its last */
	CELL_QUIET,		/* the rank wrote nothing in this slice */
	CELL_LOW,		/* activity, four levels relative to the rank's busiest slice */
	CELL_MID,
	CELL_HIGH,
	CELL_FULL,
	CELL_END,		/* the slice of the rank's last line */
	CELL_SYMPTOM,
	CELL_COLLATERAL,
	CELL_INITIATING,
	CELL__COUNT
};

struct timeline_view {
	int64_t	t0;		/* seconds (stamp sec) of the left edge */
	int64_t	span;		/* seconds across all columns, >= 1 */
	int	cols;
};

/* A view of the whole run in cols columns. */
void	timeline_fit(const struct incident *in, int cols, struct timeline_view *v);
/* Zoom by a factor around the time at column col (factor < 1 zooms in). */
void	timeline_zoom(const struct incident *in, struct timeline_view *v, int col,
	    double factor);
/* Column of a time, -1 left of the view, cols right of it. */
int	timeline_col(const struct timeline_view *v, int64_t sec);
int64_t	timeline_time(const struct timeline_view *v, int col);
/* Fill cells[0..v->cols) for rank (-1: the unattributed stream). */
void	timeline_row(const struct incident *in, int rank,
	    const struct timeline_view *v, enum cell *cells);
/* Seconds per column, for the scale label. */
double	timeline_step(const struct timeline_view *v);

#endif
