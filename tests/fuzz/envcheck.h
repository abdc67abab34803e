/* envcheck.h: what core/envelope.h promises, checked on every envelope the
 * envelope targets see (fuzz_envelope with the shipped layouts,
 * fuzz_layouts with the input's): envelope_take over a text's lines with
 * one envstate, as a source hands them over (each an exact-size copy, at
 * most SOURCE_LINE_MAX bytes), and envelope_is_document and
 * envelope_document over the whole text with a fresh one. */
#ifndef RW_FUZZ_ENVCHECK_H
#define RW_FUZZ_ENVCHECK_H

#include "fuzz.h"

#include "buf.h"
#include "envelope.h"
#include "layouts.h"
#include "source.h"
#include "stamp.h"

static inline int
fz_inside(const char *base, size_t baselen, const char *p, size_t n)
{
	return p >= base && (size_t)(p - base) <= baselen && n <= baselen - (size_t)(p - base);
}

/* What every envelope must be, wherever its text lives: a kind; decoded
 * exactly when it is a JSON record's; its text readable to its end and no
 * longer than from, the bytes it was taken from (JSON's escapes and byte
 * arrays only shrink); names that end within ENVELOPE_NAME_MAX; an index
 * of -1 (always without a pod) up to index_max; a time that formats. */
static inline void
fz_check_envelope(const struct envelope *env, size_t from, long index_max)
{
	char out[64];
	size_t i;
	volatile unsigned sum = 0;

	FZ_CHECK(env->kind == ENV_KUBECTL || env->kind == ENV_STERN || env->kind == ENV_CRI ||
	    env->kind == ENV_JSON);
	FZ_CHECK(env->decoded == (env->kind == ENV_JSON));
	FZ_CHECK(env->text != NULL);
	FZ_CHECK(env->len <= from);
	for (i = 0; i < env->len; i++)	/* a text that is not there: ASan says so */
		sum += (unsigned char)env->text[i];
	FZ_CHECK(memchr(env->pod, '\0', ENVELOPE_NAME_MAX) != NULL);
	FZ_CHECK(memchr(env->node, '\0', ENVELOPE_NAME_MAX) != NULL);
	FZ_CHECK(memchr(env->container, '\0', ENVELOPE_NAME_MAX) != NULL);
	FZ_CHECK(env->index >= -1 && env->index <= index_max);
	FZ_CHECK(env->pod[0] != '\0' || env->index == -1);
	if (env->ts.flags & STAMP_TIME) {
		FZ_CHECK(env->ts.nsec >= 0 && env->ts.nsec < 1000000000);
		stamp_format(&env->ts, 1, out, sizeof out);
		FZ_CHECK(memchr(out, '\0', sizeof out) != NULL);
	}
}

/* Each line of text[0..size) through envelope_take with one envstate;
 * returns how many had an envelope. */
static inline unsigned long
fz_take_lines(const struct layouts *lay, const char *text, size_t size, long index_max)
{
	struct envstate es;
	struct envelope env;
	struct buf scratch = BUF_INIT;
	const char *nl;
	size_t off = 0;
	unsigned long taken = 0;
	int r;

	envstate_init(&es);
	while (off < size) {
		size_t len, whole;
		char *raw;

		nl = memchr(text + off, '\n', size - off);
		whole = len = nl != NULL ? (size_t)(nl - (text + off)) : size - off;
		if (len > SOURCE_LINE_MAX)
			len = SOURCE_LINE_MAX;	/* a source hands over a long line's head */
		raw = fz_copy(text + off, len);
		memset(&env, 0x5a, sizeof env);	/* what it does not set shows */
		r = envelope_take(lay, &es, raw, len, &env, &scratch);
		FZ_CHECK(r == 0 || r == 1);
		if (r == 1) {
			/* in the raw line, or in the scratch once decoded ("" when
			 * the scratch has nothing) */
			if (!env.decoded)
				FZ_CHECK(fz_inside(raw, len, env.text, env.len));
			else if (scratch.s == NULL)
				FZ_CHECK(env.len == 0);
			else
				FZ_CHECK(fz_inside(scratch.s, scratch.len, env.text, env.len));
			fz_check_envelope(&env, len, index_max);
			FZ_CHECK(es.seen == env.kind);	/* the source's lines are of its kind */
			taken++;
		}
		free(raw);
		off += whole + (nl != NULL);
	}
	envstate_release(&es);
	buf_release(&scratch);
	return taken;
}

struct fz_records {
	size_t		 size;	/* the document's */
	long		 index_max;
	long		 n;
};

static inline void
fz_on_record(void *arg, const struct envelope *env)
{
	struct fz_records *r = arg;

	FZ_CHECK(env->kind == ENV_JSON);
	fz_check_envelope(env, r->size, r->index_max);
	r->n++;
}

/* text[0..size) (an exact-size copy) as a whole document: as many records
 * handed over as it says; refused, it says why. */
static inline long
fz_document(const struct layouts *lay, const char *text, size_t size, long index_max)
{
	struct envstate es;
	struct fz_records recs = { size, index_max, 0 };
	unsigned long line = 0;
	char *why = NULL;
	long n;
	int r;

	r = envelope_is_document(text, size);
	FZ_CHECK(r == 0 || r == 1);
	envstate_init(&es);
	n = envelope_document(lay, &es, text, size, fz_on_record, &recs, &why, &line);
	if (n < 0) {
		FZ_CHECK(n == -1 && why != NULL && recs.n == 0);
		free(why);
	} else {
		FZ_CHECK(why == NULL && line == 0);
		FZ_CHECK(n == recs.n);
		FZ_CHECK(n == 0 || es.seen == ENV_JSON);
	}
	envstate_release(&es);
	return n;
}

#endif
