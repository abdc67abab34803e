/* report_prom.c: the diagnosis as a Prometheus text exposition (format
 * 0.0.4), for node_exporter's textfile collector. Every family is always
 * there with the same labels, so alert rules can match it; a run of
 * which nothing was read is rankwatch_up 0 with every verdict 0, never
 * healthy. Log-derived label values are escaped, invalid UTF-8 replaced. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "xmalloc.h"

#define PROM_DIAGNOSES	5	/* entries shown, best first */

/* Upper bounds of the age buckets, in seconds (+Inf follows). */
static const int age_le[] = { 10, 30, 60, 120, 300, 600, 1800, 3600, 21600, 86400 };
#define NAGE	(sizeof age_le / sizeof *age_le)

static const char *const verdicts[] = { "healthy", "failure", "hang" };
static const char *const confidences[] = { "high", "medium", "low" };

/* s as a label value's inside: backslash, quote and newline escaped as
 * the format says; bytes that are not UTF-8 become U+FFFD. */
static void
label_value(struct buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
	size_t n = strlen((const char *)u), i = 0, l;

	while (i < n) {
		if (u[i] == '\\')
			buf_adds(b, "\\\\");
		else if (u[i] == '"')
			buf_adds(b, "\\\"");
		else if (u[i] == '\n')
			buf_adds(b, "\\n");
		else if (u[i] < 0x80)
			buf_addc(b, (char)u[i]);
		else if ((l = utf8_seqlen(u + i, n - i)) != 0) {
			buf_add(b, u + i, l);
			i += l;
			continue;
		} else
			buf_adds(b, "\xef\xbf\xbd");
		i++;
	}
}

static void
family(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One-hot gauge: name{label="v"} 1 for the value on (none when on is
 * NULL), 0 for the others. */
static void
one_hot(struct buf *b, const char *name, const char *label, const char *const *v, size_t n,
    const char *on)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_printf(b, "%s{%s=\"%s\"} %d\n", name, label, v[i],
		    on != NULL && strcmp(on, v[i]) == 0);
}

/* A histogram of ages (seconds, >= 0) over n ranks. */
static void
histogram(struct buf *b, const char *name, const int64_t *age, size_t n)
{
	size_t i, k;
	int64_t sum = 0;

	for (k = 0; k < NAGE; k++) {
		size_t c = 0;

		for (i = 0; i < n; i++)
			c += age[i] <= age_le[k];
		buf_printf(b, "%s_bucket{le=\"%d\"} %zu\n", name, age_le[k], c);
	}
	for (i = 0; i < n; i++)
		sum += age[i];
	buf_printf(b, "%s_bucket{le=\"+Inf\"} %zu\n%s_sum %lld\n%s_count %zu\n", name, n, name,
	    (long long)sum, name, n);
}

void
report_prometheus(struct run *r, const struct analysis *an, const struct report_clock *clk,
    struct buf *b)
{
	struct incident *in = r->incident;
	int up = in->lines > 0;
	int64_t now = clk != NULL && clk->now > 0 ? clk->now : (int64_t)time(NULL);
	int64_t changed = clk != NULL && clk->changed > 0 ? clk->changed : now;
	int64_t *idle, *lag, newest = INT64_MIN;
	struct stamp local;
	size_t i, n = 0, untimed = 0;
	int initiating = up && an->initiating != NULL ? an->initiating->rank : -1;

	family(b, "rankwatch_up", "gauge", "1 when at least one line of the run was read and "
	    "the metrics below describe it; 0 when nothing was read (yet): then no verdict is 1.");
	buf_printf(b, "rankwatch_up %d\n", up);
	family(b, "rankwatch_info", "gauge", "Always 1: the rankwatch version, the run's log layout "
	    "and its paths as given on the command line.");
	buf_printf(b, "rankwatch_info{version=\"%s\",layout=\"", PACKAGE_VERSION);
	label_value(b, r->layout);
	buf_adds(b, "\",run=\"");
	label_value(b, r->title);
	buf_adds(b, "\"} 1\n");

	family(b, "rankwatch_verdict", "gauge", "1 for the verdict (healthy, failure, hang), 0 for "
	    "the others; all 0 when rankwatch_up is 0.");
	one_hot(b, "rankwatch_verdict", "verdict", verdicts, 3,
	    up ? verdict_name(an->verdict) : NULL);
	family(b, "rankwatch_confidence", "gauge", "1 for the verdict's confidence (high, medium, "
	    "low), 0 for the others; all 0 when rankwatch_up is 0.");
	one_hot(b, "rankwatch_confidence", "confidence", confidences, 3,
	    up ? an->confidence : NULL);
	family(b, "rankwatch_initiating_known", "gauge", "1 when the logs say which rank failed "
	    "first (rankwatch_initiating_rank); 0 in a healthy run, a hang, or a failure no line "
	    "ties to a rank.");
	buf_printf(b, "rankwatch_initiating_known %d\n", initiating >= 0);
	family(b, "rankwatch_initiating_rank", "gauge", "The global rank that failed first; -1 "
	    "when rankwatch_initiating_known is 0.");
	buf_printf(b, "rankwatch_initiating_rank %d\n", initiating);
	family(b, "rankwatch_suspect_rank", "gauge", "The likeliest suspect of a hang (or the "
	    "failed rank); -1 when there is none.");
	buf_printf(b, "rankwatch_suspect_rank %d\n", up && an->nsuspects > 0 ?
	    an->suspects[0].rank : -1);

	family(b, "rankwatch_diagnosis_score", "gauge", "Encyclopedia entries that explain the "
	    "run, the best 5: their score, 0 to 1 (rankwatch --show ENTRY explains one).");
	for (i = 0; up && i < an->ndiags && i < PROM_DIAGNOSES; i++) {
		const struct entry *e = an->diags[i].entry;

		buf_adds(b, "rankwatch_diagnosis_score{entry=\"");
		label_value(b, e->id);
		buf_adds(b, "\",category=\"");
		label_value(b, e->category);
		buf_adds(b, "\",severity=\"");
		label_value(b, e->severity);
		buf_printf(b, "\"} %.3f\n", an->diags[i].score);
	}
	family(b, "rankwatch_diagnoses", "gauge", "Encyclopedia entries that matched, including "
	    "those rankwatch_diagnosis_score leaves out.");
	buf_printf(b, "rankwatch_diagnoses %zu\n", up ? an->ndiags : 0);

	family(b, "rankwatch_ranks", "gauge", "Ranks by role (healthy, initiating, collateral, "
	    "suspect, silent); all 0 when rankwatch_up is 0.");
	for (i = 0; i < RR__COUNT; i++)
		buf_printf(b, "rankwatch_ranks{role=\"%s\"} %zu\n", rank_role_name((enum rank_role)i),
		    up ? an->role_count[i] : 0);

	family(b, "rankwatch_files", "gauge", "Log files found.");
	buf_printf(b, "rankwatch_files %zu\n", r->nsources);
	family(b, "rankwatch_files_unreadable", "gauge", "Log files found that could never be "
	    "read.");
	buf_printf(b, "rankwatch_files_unreadable %zu\n", r->nsources - run_readable(r));
	family(b, "rankwatch_lines_total", "counter", "Lines read.");
	buf_printf(b, "rankwatch_lines_total %lu\n", in->lines);
	family(b, "rankwatch_bytes_total", "counter", "Bytes read.");
	buf_printf(b, "rankwatch_bytes_total %llu\n", (unsigned long long)in->bytes);

	/* The logs' times are naive local times: now is made one the same
	 * way (TZ), as file times are (stamp.h). */
	stamp_from_epoch(now, 0, &local);
	idle = xcalloc(in->rank_n + 1, sizeof *idle);
	lag = xcalloc(in->rank_n + 1, sizeof *lag);
	for (i = 0; i < in->rank_n; i++)
		if ((in->rank_v[i]->last.flags & STAMP_TIME) && in->rank_v[i]->last.sec > newest)
			newest = in->rank_v[i]->last.sec;
	for (i = 0; i < in->rank_n; i++) {
		const struct stamp *t = &in->rank_v[i]->last;

		if (!(t->flags & STAMP_TIME)) {
			untimed++;
			continue;
		}
		idle[n] = local.sec > t->sec ? local.sec - t->sec : 0;
		lag[n++] = newest - t->sec;
	}
	family(b, "rankwatch_rank_idle_seconds", "histogram", "Ranks by the seconds since their "
	    "last line with a time, measured from the wall clock when this was written (the logs' "
	    "clock read in the zone TZ; a future time counts as 0): for a live run.");
	histogram(b, "rankwatch_rank_idle_seconds", idle, n);
	family(b, "rankwatch_rank_lag_seconds", "histogram", "Ranks by the seconds their last "
	    "line with a time is behind the newest rank's: for a finished run as for a live one.");
	histogram(b, "rankwatch_rank_lag_seconds", lag, n);
	free(idle);
	free(lag);
	family(b, "rankwatch_ranks_untimed", "gauge", "Ranks left out of the two histograms: "
	    "none of their lines had a time of its own (or they wrote none).");
	buf_printf(b, "rankwatch_ranks_untimed %zu\n", untimed);

	family(b, "rankwatch_last_line_timestamp_seconds", "gauge", "Unix time of the newest "
	    "line with a time of its own (the logs' clock read in the zone TZ); 0 when no line "
	    "had one.");
	buf_printf(b, "rankwatch_last_line_timestamp_seconds %lld\n", newest != INT64_MIN ?
	    (long long)stamp_to_epoch(newest) : 0LL);
	family(b, "rankwatch_last_change_timestamp_seconds", "gauge", "Unix time the diagnosis "
	    "(verdict, ranks, entry, confidence, reason) last changed: with --watch when rankwatch "
	    "saw it change, with --report when the report was made.");
	buf_printf(b, "rankwatch_last_change_timestamp_seconds %lld\n", (long long)changed);
	family(b, "rankwatch_generated_timestamp_seconds", "gauge", "Unix time this exposition "
	    "was made: the wall clock rankwatch_rank_idle_seconds is measured from.");
	buf_printf(b, "rankwatch_generated_timestamp_seconds %lld\n", (long long)now);
}

void
report_render_prometheus(struct run *r, const struct analysis *an, struct buf *out)
{
	report_prometheus(r, an, NULL, out);
}
