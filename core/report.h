/* report.h: the diagnosis as text, JSON, Markdown or a Prometheus
 * exposition.
 * One render function per format (a table of them), all reading the same
 * analysis; nothing here decides anything. */
#ifndef RW_REPORT_H
#define RW_REPORT_H

#include <stdint.h>

#include "buf.h"
#include "run.h"

struct report_format {
	const char	*name;
	void		(*render)(struct run *r, const struct analysis *an,
			    struct buf *out);
};

/* NULL when the name is unknown. */
const struct report_format *report_format_find(const char *name);
void	report_render(const struct report_format *f, struct run *r, struct buf *out);
/* --watch: an event as two lines of text (where, whose, when, role and
 * entry; the message); as one JSON line; a verdict as one JSON line. */
void	report_event_text(const struct event *ev, struct buf *b);
void	report_event_jsonl(const struct rulebook *rb, const struct event *ev,
	    struct buf *b);
void	report_verdict_jsonl(const struct analysis *an, struct buf *b);
/* --format prometheus (report_prom.c): the text exposition format 0.0.4.
 * The ages are measured from clk->now and the last change is
 * clk->changed (Unix seconds; 0, or clk NULL: the wall clock now). A run
 * with no line read is rankwatch_up 0 and no verdict. */
struct report_clock {
	int64_t	now;
	int64_t	changed;
};
void	report_prometheus(struct run *r, const struct analysis *an,
	    const struct report_clock *clk, struct buf *out);
/* The same with the wall clock, for the format table. */
void	report_render_prometheus(struct run *r, const struct analysis *an,
	    struct buf *out);
/* Exit status for a report: 0 healthy, 1 failure or hang. */
int	report_exit_status(const struct analysis *an);

#endif
