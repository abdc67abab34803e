/* report.c: render an analysis for people (text, Markdown) and scripts (JSON).
 * Every log-derived string goes through buf_add_safe or buf_add_json:
 * a log line must never reach a terminal or a parser unescaped. */
#include "config.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "pass.h"
#include "report.h"
#include "xmalloc.h"

#define MAX_EVIDENCE	6
#define MAX_SUSPECTS	8

static void
add_safe(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_add_safe(b, s, strlen(s));
}



static const char *
time_note(const struct stamp *s)
{
	if (!(s->flags & STAMP_TIME))
		return "no time";
	if (s->flags & STAMP_REPORTED)
		return "as torchrun reported it";
	if (s->flags & STAMP_INHERITED)
		return "from the line before";
	if (s->flags & STAMP_YEARGUESS)
		return "year from file mtime";
	return NULL;
}

#define GONE	"(the line is no longer in its file as it was read)"

/* The message part of an event's line, for one-line display; buf holds
 * the line when it is read back. */
static const char *
event_message(const struct event *ev, char buf[EVENT_TEXT_MAX + 1], size_t *len)
{
	struct linestate ls;
	struct line ln;
	const char *text = event_text(ev, buf);

	if (text == NULL) {
		*len = strlen(GONE);
		return GONE;
	}
	linestate_init(&ls, -1, -1, 0);
	line_parse(&ls, text, strlen(text), &ln);
	*len = ln.msglen;
	return ln.msg;
}

static char *
roles_line(const struct incident *in, enum rank_role r)
{
	return incident_ranks_with_role(in, r);
}

/* --- text ---------------------------------------------------------------- */

/* Which ranks the logs cover, and whether the run says how many there are
 * (a rank is called missing only then). One line, plain text. */
static void
coverage(struct buf *b, const struct incident *in, const struct analysis *an)
{
	int *v = xmalloc(sizeof *v * (in->rank_n + 1));
	size_t i, n = 0;
	char *list;

	for (i = 0; i < in->rank_n; i++)	/* in rank order: after an analysis */
		if (in->rank_v[i]->lines > 0)
			v[n++] = in->rank_v[i]->rank;
	list = ranks_compress(v, n);
	if (an->world > 0)
		buf_printf(b, "World: %d ranks (%s); the logs cover ranks %s\n", an->world,
		    an->world_from, n ? list : "none");
	else if (n > 0)
		buf_printf(b, "Ranks: the logs cover ranks %s; they do not establish the world "
		    "size, so no other rank is called missing\n", list);
	free(list);
	free(v);
}

/* An event in two lines: where, whose, when and its role (and entry,
 * with_entry), then its message. */
static void
text_event(struct buf *b, const struct event *ev, const char *indent, int with_entry)
{
	char when[40], text[EVENT_TEXT_MAX + 1];
	const char *note = time_note(&ev->ts), *msg;
	size_t mlen;

	stamp_format(&ev->ts, 0, when, sizeof when);
	buf_adds(b, indent);
	add_safe(b, event_file(ev));
	buf_printf(b, ":%lu  ", (unsigned long)ev->lineno);
	if (ev->rank >= 0)
		buf_printf(b, "rank %d", ev->rank);
	else if (ev->host != NULL) {
		/* where a host prefix is all that locates it */
		buf_adds(b, "no rank, host ");
		add_safe(b, ev->host);
	} else
		buf_adds(b, "no rank");
	buf_printf(b, "  %s%s%s%s  [%s%s%s]\n", when, note ? " (" : "", note ? note : "",
	    note ? ")" : "", role_name(ev->sig->role), with_entry ? " " : "",
	    with_entry ? ev->sig->entry->id : "");
	msg = event_message(ev, text, &mlen);
	buf_adds(b, indent);
	buf_adds(b, "  ");
	buf_add_safe(b, msg, mlen > 200 ? 200 : mlen);
	if (mlen > 200)
		buf_adds(b, "...");
	buf_addc(b, '\n');
}

/* A line two signatures of an entry read is one piece of evidence to its
 * reader: shown once, by the event that names a rank if one does, else
 * by the first. */
static int
shown_by_another(const struct diagnosis *d, size_t j)
{
	const struct event *e = d->evidence_events[j];
	size_t k;

	for (k = 0; k < d->nevidence; k++) {
		const struct event *o = d->evidence_events[k];

		if (k == j || !event_same_line(o, e))
			continue;
		if ((o->rank >= 0) != (e->rank >= 0) ? o->rank >= 0 : k < j)
			return 1;
	}
	return 0;
}

static void
render_text(struct run *r, const struct analysis *an, struct buf *b)
{
	struct incident *in = r->incident;
	char t1[40], t2[40], sz[32];
	size_t i, j, shown;
	static const char *const upper[] = { "HEALTHY", "FAILURE", "HANG" };

	buf_printf(b, "%s", upper[an->verdict]);
	if (an->initiating != NULL && an->initiating->rank >= 0) {
		buf_printf(b, "  rank %d first: ", an->initiating->rank);
		add_safe(b, an->init_entry->title);
	} else if (an->verdict != VERDICT_HEALTHY && an->initiating == NULL) {
		if (an->verdict == VERDICT_FAILURE)
			buf_adds(b, an->stopped ? "  only teardown, no cause shown" :
			    "  only fallout, no cause shown");
		if (an->nsuspects > 0) {
			char *lead = analysis_lead_suspects(an, NULL);

			buf_printf(b, "%ssuspect %s", an->verdict == VERDICT_FAILURE ? "; " : "  ",
			    lead);
			free(lead);
		}
	}
	buf_printf(b, "  (confidence %s)\n", an->confidence);
	buf_adds(b, "  ");
	add_safe(b, an->reason);
	buf_adds(b, ".\n\n");

	stamp_format(&in->first, 1, t1, sizeof t1);
	stamp_format(&in->last, 1, t2, sizeof t2);
	buf_format_bytes(in->bytes, sz, sizeof sz);
	buf_printf(b, "Run: %zu file%s (%s), %zu rank%s, %lu lines, %s, %s - %s\n",
	    r->nsources, r->nsources == 1 ? "" : "s", r->layout,
	    incident_active_ranks(in), incident_active_ranks(in) == 1 ? "" : "s",
	    in->lines, sz, t1, t2);
	coverage(b, in, an);
	buf_addc(b, '\n');

	if (an->initiating != NULL) {
		buf_adds(b, "Initiating event:\n");
		text_event(b, an->initiating, "  ", 0);
		buf_addc(b, '\n');
	}
	if (an->nsuspects > 0 && an->verdict != VERDICT_HEALTHY) {
		buf_adds(b, "Suspects, likeliest first:\n");
		for (i = 0; i < an->nsuspects && i < MAX_SUSPECTS; i++) {
			buf_printf(b, "  rank %-5d ", an->suspects[i].rank);
			add_safe(b, an->suspects[i].reason);
			buf_addc(b, '\n');
		}
		if (an->nsuspects > MAX_SUSPECTS)
			buf_printf(b, "  ... and %zu more\n", an->nsuspects - MAX_SUSPECTS);
		buf_addc(b, '\n');
	}
	buf_adds(b, "Diagnoses, best first:\n");
	if (an->ndiags == 0)
		buf_adds(b, "  none: no encyclopedia entry matched\n");
	for (i = 0; i < an->ndiags; i++) {
		const struct diagnosis *d = &an->diags[i];

		buf_printf(b, "  %zu. %-28s %.2f  ", i + 1, d->entry->id, d->score);
		add_safe(b, d->entry->title);
		buf_printf(b, "  [%s, %s", d->entry->category, d->entry->severity);
		if (d->owns_initiating)
			buf_adds(b, ", explains the initiating event");
		buf_adds(b, "]\n");
		for (j = 0; j < d->nconds; j++) {
			buf_adds(b, "       condition: ");
			add_safe(b, d->conds[j]->cond->text);
			if (d->conds[j]->detail != NULL) {
				buf_adds(b, " (");
				add_safe(b, d->conds[j]->detail);
				buf_adds(b, ")");
			}
			buf_addc(b, '\n');
		}
		for (j = 0, shown = 0; j < d->nevidence && shown < MAX_EVIDENCE; j++)
			if (!shown_by_another(d, j)) {
				text_event(b, d->evidence_events[j], "       ", 0);
				shown++;
			}
	}
	buf_addc(b, '\n');
	buf_adds(b, "Ranks by role:\n");
	for (i = 0; i < RR__COUNT; i++) {
		char *s;

		if (an->role_count[i] == 0)
			continue;
		s = roles_line(in, (enum rank_role)i);
		buf_printf(b, "  %-11s %s\n", rank_role_name((enum rank_role)i), s);
		free(s);
	}
	if (in->unattributed.lines > 0)
		buf_printf(b, "  %-11s %lu lines carry no rank\n", "unattributed",
		    in->unattributed.lines);
	if (r->notes.n > 0) {
		buf_adds(b, "\nNotes:\n");
		for (i = 0; i < r->notes.n; i++) {
			char *s = note_format(&r->notes.v[i]);

			buf_printf(b, "  %s\n", s);
			free(s);
		}
		if (r->notes.dropped)
			buf_printf(b, "  ... and %zu more\n", r->notes.dropped);
	}
	if (an->ndiags > 0)
		buf_printf(b, "\nNext: rankwatch --show %s   (root cause, checklist, fix)\n",
		    an->diags[0].entry->id);
}

/* --- JSON ---------------------------------------------------------------- */

static void
js_time(struct buf *b, const struct stamp *s)
{
	char t[40];

	if (!(s->flags & STAMP_TIME)) {
		buf_adds(b, "null");
		return;
	}
	stamp_format(s, 1, t, sizeof t);
	t[10] = 'T';
	buf_add_jstr(b, t);
}

static void
js_event_read(struct buf *b, const struct rulebook *rb, const struct event *ev,
    const char *text)
{
	size_t i;
	const char *note;

	if (ev == NULL) {
		buf_adds(b, "null");
		return;
	}
	buf_adds(b, "{\"file\": ");
	buf_add_jstr(b, event_file(ev));
	buf_printf(b, ", \"line\": %lu, \"rank\": ", (unsigned long)ev->lineno);
	if (ev->rank >= 0)
		buf_printf(b, "%d", ev->rank);
	else
		buf_adds(b, "null");
	buf_adds(b, ", \"rank_from\": ");
	buf_add_jstr(b, rank_from_name(ev->rank_from));
	buf_adds(b, ", \"time\": ");
	js_time(b, &ev->ts);
	if ((note = time_note(&ev->ts)) != NULL && (ev->ts.flags & STAMP_TIME)) {
		buf_adds(b, ", \"time_note\": ");
		buf_add_jstr(b, note);
	}
	if ((ev->ts.flags & STAMP_INHERITED) && (event_upper(ev)->flags & STAMP_TIME)) {
		buf_adds(b, ", \"time_upper\": ");
		js_time(b, event_upper(ev));
	}
	buf_adds(b, ", \"entry\": ");
	buf_add_jstr(b, ev->sig->entry->id);
	buf_adds(b, ", \"signature\": ");
	buf_add_jstr(b, ev->sig->id);
	buf_adds(b, ", \"role\": ");
	buf_add_jstr(b, role_name(ev->sig->role));
	buf_adds(b, ", \"facts\": {");
	for (i = 0; i < ev->nfacts; i++) {
		int id;
		const char *v = event_fact_at(ev, i, &id);

		if (i)
			buf_adds(b, ", ");
		buf_add_jstr(b, rb->facts[id]);
		buf_adds(b, ": ");
		buf_add_jstr(b, v);
	}
	buf_adds(b, "}, \"text\": ");
	if (text != NULL)
		buf_add_jstr(b, text);
	else
		buf_adds(b, "null");
	buf_addc(b, '}');
}

static void
js_event(struct buf *b, const struct rulebook *rb, const struct event *ev)
{
	char text[EVENT_TEXT_MAX + 1];

	js_event_read(b, rb, ev, ev != NULL ? event_text(ev, text) : NULL);
}

/* Each rank's first event, its line read back from its file: a window of
 * ranks at a time, the files read on the run's threads (a run of 100,000
 * ranks is 100,000 files to open again). */
#define TEXT_WINDOW	4096

struct textwin {
	const struct event	*ev[TEXT_WINDOW];
	char			 buf[TEXT_WINDOW][EVENT_TEXT_MAX + 1];
	const char		*text[TEXT_WINDOW];	/* in buf, in the event, NULL */
	size_t			 n;
};

static void
textwin_read(void *arg, size_t i)
{
	struct textwin *w = arg;

	w->text[i] = w->ev[i] != NULL ? event_text(w->ev[i], w->buf[i]) : NULL;
}

void
report_event_text(const struct event *ev, struct buf *b)
{
	text_event(b, ev, "", 1);
}

void
report_event_jsonl(const struct rulebook *rb, const struct event *ev, struct buf *b)
{
	buf_adds(b, "{\"type\": \"event\", \"event\": ");
	js_event(b, rb, ev);
	buf_adds(b, "}\n");
}

void
report_verdict_jsonl(const struct analysis *an, struct buf *b)
{
	buf_adds(b, "{\"type\": \"verdict\", \"verdict\": ");
	buf_add_jstr(b, verdict_name(an->verdict));
	buf_adds(b, ", \"initiating\": ");
	if (an->initiating != NULL && an->initiating->rank >= 0)
		buf_printf(b, "%d", an->initiating->rank);
	else
		buf_adds(b, "null");
	buf_adds(b, ", \"suspect\": ");
	if (an->nsuspects > 0)
		buf_printf(b, "%d", an->suspects[0].rank);
	else
		buf_adds(b, "null");
	buf_adds(b, ", \"entry\": ");
	buf_add_jstr(b, an->ndiags > 0 ? an->diags[0].entry->id : NULL);
	buf_adds(b, ", \"confidence\": ");
	buf_add_jstr(b, an->confidence);
	buf_adds(b, ", \"reason\": ");
	buf_add_jstr(b, an->reason);
	buf_adds(b, "}\n");
}

static void
render_json(struct run *r, const struct analysis *an, struct buf *b)
{
	struct incident *in = r->incident;
	const struct rulebook *rb = r->rb;
	struct textwin *win;
	size_t i, j, n;

	buf_adds(b, "{\n  \"verdict\": ");
	buf_add_jstr(b, verdict_name(an->verdict));
	buf_adds(b, ",\n  \"initiating\": {\"rank\": ");
	if (an->initiating != NULL && an->initiating->rank >= 0)
		buf_printf(b, "%d", an->initiating->rank);
	else
		buf_adds(b, "null");
	buf_adds(b, ", \"confidence\": ");
	buf_add_jstr(b, an->confidence);
	buf_adds(b, ", \"reason\": ");
	buf_add_jstr(b, an->reason);
	buf_adds(b, ",\n    \"event\": ");
	js_event(b, rb, an->initiating);
	buf_adds(b, "},\n  \"suspects\": [");
	for (i = 0; i < an->nsuspects; i++) {
		buf_adds(b, i ? ",\n    " : "\n    ");
		buf_printf(b, "{\"rank\": %d, \"score\": %.2f, \"reason\": ",
		    an->suspects[i].rank, an->suspects[i].score);
		buf_add_jstr(b, an->suspects[i].reason);
		buf_addc(b, '}');
		buf_drain(b);
	}
	buf_adds(b, an->nsuspects ? "\n  ],\n  \"diagnoses\": [" : "],\n  \"diagnoses\": [");
	for (i = 0; i < an->ndiags; i++) {
		const struct diagnosis *d = &an->diags[i];

		buf_adds(b, i ? ",\n    {" : "\n    {");
		buf_adds(b, "\"entry\": ");
		buf_add_jstr(b, d->entry->id);
		buf_adds(b, ", \"title\": ");
		buf_add_jstr(b, d->entry->title);
		buf_adds(b, ", \"category\": ");
		buf_add_jstr(b, d->entry->category);
		buf_adds(b, ", \"severity\": ");
		buf_add_jstr(b, d->entry->severity);
		buf_printf(b, ", \"score\": %.2f, \"explains_initiating\": %s, "
		    "\"ranks\": %zu,\n      \"conditions\": [", d->score,
		    d->owns_initiating ? "true" : "false", d->ranks);
		for (j = 0; j < d->nconds; j++) {
			const struct condresult *c = d->conds[j];
			char *bl = ranks_compress(c->blamed, c->nblamed);

			buf_adds(b, j ? ", {\"id\": " : "{\"id\": ");
			buf_add_jstr(b, c->cond->id);
			buf_adds(b, ", \"text\": ");
			buf_add_jstr(b, c->cond->text);
			buf_adds(b, ", \"detail\": ");
			buf_add_jstr(b, c->detail);
			buf_adds(b, ", \"ranks\": ");
			buf_add_jstr(b, bl);
			buf_addc(b, '}');
			free(bl);
		}
		buf_adds(b, "],\n      \"evidence\": [");
		for (j = 0; j < d->nevidence; j++) {
			buf_adds(b, j ? ",\n        " : "\n        ");
			js_event(b, rb, d->evidence_events[j]);
		}
		buf_adds(b, d->nevidence ? "\n      ]}" : "]}");
		buf_drain(b);
	}
	buf_adds(b, an->ndiags ? "\n  ],\n  \"ranks\": [" : "],\n  \"ranks\": [");
	win = xmalloc(sizeof *win);
	for (i = n = 0; i < in->rank_n; i++) {
		const struct rankstate *rs = in->rank_v[i];

		if (i % TEXT_WINDOW == 0) {
			for (j = 0; j < TEXT_WINDOW && i + j < in->rank_n; j++)
				win->ev[j] = in->rank_v[i + j]->first_event;
			win->n = j;
			pass_each(win->n, r->jobs, textwin_read, win);
		}

		buf_adds(b, n++ ? ",\n    " : "\n    ");
		buf_printf(b, "{\"rank\": %d, \"role\": ", rs->rank);
		buf_add_jstr(b, rank_role_name(rs->role));
		buf_adds(b, ", \"host\": ");
		buf_add_jstr(b, rs->host);
		buf_printf(b, ", \"lines\": %lu, \"last_activity\": ", rs->lines);
		js_time(b, &rs->last);
		buf_adds(b, ", \"last_step\": ");
		if (rs->step >= 0)
			buf_printf(b, "%.0f", rs->step);
		else
			buf_adds(b, "null");
		buf_adds(b, ",\n      \"first_event\": ");
		if (rs->first_event != NULL)
			js_event_read(b, rb, rs->first_event, win->text[i % TEXT_WINDOW]);
		else
			buf_adds(b, "null");
		buf_addc(b, '}');
		buf_drain(b);
	}
	free(win);
	buf_printf(b, "%s],\n  \"run\": {\"files\": %zu, \"ranks\": %zu, \"lines\": %lu, "
	    "\"bytes\": %llu, \"layout\": ", n ? "\n  " : "", r->nsources,
	    incident_active_ranks(in), in->lines, (unsigned long long)in->bytes);
	buf_add_jstr(b, r->layout);
	buf_printf(b, ", \"unattributed_lines\": %lu, \"start\": ", in->unattributed.lines);
	js_time(b, &in->first);
	buf_adds(b, ", \"end\": ");
	js_time(b, &in->last);
	if (an->world > 0) {
		buf_printf(b, ", \"world\": %d, \"world_from\": ", an->world);
		buf_add_jstr(b, an->world_from);
	} else
		buf_adds(b, ", \"world\": null, \"world_from\": null");
	buf_adds(b, "},\n  \"notes\": [");
	for (i = 0; i < r->notes.n; i++) {
		char *s = note_format(&r->notes.v[i]);

		buf_adds(b, i ? ",\n    " : "\n    ");
		buf_add_jstr(b, s);
		free(s);
	}
	buf_adds(b, r->notes.n ? "\n  ]\n}\n" : "]\n}\n");
}

/* --- Markdown -------------------------------------------------------- */

static void
mds(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_add_md(b, s, strlen(s));
}

/* s as a Markdown quote: one "> " line per line of it, no trailing
 * newline left to show as ^J. */
static void
md_quote(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	buf_addc(b, '\n');
	while (n > 0) {
		const char *nl = memchr(s, '\n', n);
		size_t l = nl ? (size_t)(nl - s) : n;
		char *line = xstrndup(s, l);

		buf_adds(b, "> ");
		mds(b, line);
		buf_addc(b, '\n');
		free(line);
		s += nl ? l + 1 : l;
		n -= nl ? l + 1 : l;
	}
}

static void
md_event_row(struct buf *b, const struct event *ev)
{
	char when[40], text[EVENT_TEXT_MAX + 1];
	const char *msg;
	size_t mlen;

	stamp_format(&ev->ts, 1, when, sizeof when);
	buf_adds(b, "| `");
	mds(b, event_file(ev));
	buf_printf(b, ":%lu` | ", (unsigned long)ev->lineno);
	if (ev->rank >= 0)
		buf_printf(b, "%d", ev->rank);
	else
		buf_adds(b, "-");
	buf_printf(b, " | %s | %s | `", when, role_name(ev->sig->role));
	msg = event_message(ev, text, &mlen);
	buf_add_md(b, msg, mlen > 160 ? 160 : mlen);
	buf_adds(b, mlen > 160 ? "...` |\n" : "` |\n");
}

static void
render_markdown(struct run *r, const struct analysis *an, struct buf *b)
{
	struct incident *in = r->incident;
	char t1[40], t2[40], sz[32];
	size_t i, j, shown;

	buf_adds(b, "## rankwatch: ");
	buf_adds(b, an->verdict == VERDICT_FAILURE ? "failure" :
	    an->verdict == VERDICT_HANG ? "hang" : "healthy");
	if (an->initiating != NULL && an->initiating->rank >= 0) {
		buf_printf(b, ", rank %d first: ", an->initiating->rank);
		mds(b, an->init_entry->title);
	}
	buf_addc(b, '\n');
	buf_adds(b, "\n**Confidence:** ");
	buf_adds(b, an->confidence);
	buf_adds(b, ". ");
	mds(b, an->reason);
	buf_adds(b, ".\n\n");
	stamp_format(&in->first, 1, t1, sizeof t1);
	stamp_format(&in->last, 1, t2, sizeof t2);
	buf_format_bytes(in->bytes, sz, sizeof sz);
	buf_printf(b, "**Run:** %zu file%s (%s), %zu rank%s, %lu line%s, %s, %s to %s\n",
	    r->nsources, r->nsources == 1 ? "" : "s", r->layout, incident_active_ranks(in),
	    incident_active_ranks(in) == 1 ? "" : "s", in->lines, in->lines == 1 ? "" : "s",
	    sz, t1, t2);
	coverage(b, in, an);
	buf_addc(b, '\n');
	if (an->initiating != NULL) {
		buf_adds(b, "### Initiating event\n\n| where | rank | time | role | message |\n"
		    "|---|---|---|---|---|\n");
		md_event_row(b, an->initiating);
		buf_addc(b, '\n');
	}
	if (an->nsuspects > 0 && an->verdict != VERDICT_HEALTHY) {
		buf_adds(b, "### Suspects\n\n| rank | why |\n|---|---|\n");
		for (i = 0; i < an->nsuspects && i < MAX_SUSPECTS; i++) {
			buf_printf(b, "| %d | ", an->suspects[i].rank);
			mds(b, an->suspects[i].reason);
			buf_adds(b, " |\n");
		}
		buf_addc(b, '\n');
	}
	buf_adds(b, "### Diagnoses\n\n");
	if (an->ndiags == 0)
		buf_adds(b, "No encyclopedia entry matched.\n\n");
	for (i = 0; i < an->ndiags; i++) {
		const struct diagnosis *d = &an->diags[i];

		buf_printf(b, "%zu. **", i + 1);
		mds(b, d->entry->title);
		buf_printf(b, "** (`%s`, %s, %s), score %.2f%s\n", d->entry->id,
		    d->entry->category, d->entry->severity, d->score,
		    d->owns_initiating ? ", explains the initiating event" : "");
		for (j = 0; j < d->nconds; j++) {
			buf_adds(b, "   - ");
			mds(b, d->conds[j]->cond->text);
			if (d->conds[j]->detail) {
				buf_adds(b, ": ");
				mds(b, d->conds[j]->detail);
			}
			buf_addc(b, '\n');
		}
	}
	if (an->ndiags > 0) {
		buf_adds(b, "\n#### Evidence for ");
		mds(b, an->diags[0].entry->id);
		buf_adds(b, "\n\n| where | rank | time | role | message |\n|---|---|---|---|---|\n");
		for (j = 0, shown = 0; j < an->diags[0].nevidence && shown < MAX_EVIDENCE; j++)
			if (!shown_by_another(&an->diags[0], j)) {
				md_event_row(b, an->diags[0].evidence_events[j]);
				shown++;
			}
		if (an->diags[0].entry->summary != NULL)
			md_quote(b, an->diags[0].entry->summary);
	}
	buf_adds(b, "\n### Ranks\n\n| role | ranks |\n|---|---|\n");
	for (i = 0; i < RR__COUNT; i++) {
		char *s;

		if (an->role_count[i] == 0)
			continue;
		s = roles_line(in, (enum rank_role)i);
		buf_printf(b, "| %s | %s |\n", rank_role_name((enum rank_role)i), s);
		free(s);
	}
	if (r->notes.n > 0) {
		buf_adds(b, "\n### Notes\n\n");
		for (i = 0; i < r->notes.n; i++) {
			char *s = note_format(&r->notes.v[i]);

			buf_adds(b, "- ");
			mds(b, s);
			buf_addc(b, '\n');
			free(s);
		}
	}
}

static const struct report_format formats[] = {
	{ "text", render_text },
	{ "json", render_json },
	{ "markdown", render_markdown },
	{ "md", render_markdown },
	{ "prometheus", report_render_prometheus },
};

const struct report_format *
report_format_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof formats / sizeof *formats; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

void
report_render(const struct report_format *f, struct run *r, struct buf *out)
{
	f->render(r, incident_analyse(r->incident), out);
}

int
report_exit_status(const struct analysis *an)
{
	return an->verdict == VERDICT_HEALTHY ? 0 : 1;
}
