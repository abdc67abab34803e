/* pipeline.h: the whole engine over a folder of logs, for the targets that
 * feed it files: the shipped rules and a matcher over them (made once),
 * run_new, run_scan,
 * incident_analyse and the JSON report, which must be valid JSON. */
#ifndef RW_FUZZ_PIPELINE_H
#define RW_FUZZ_PIPELINE_H

#include "fuzz.h"

#include "buf.h"
#include "incident.h"
#include "report.h"
#include "rulebook.h"
#include "run.h"

#ifndef TEST_SRCDIR
#define TEST_SRCDIR "."
#endif

/* The shipped rules, from $RW_RULES or the source tree, once: the
 * rulebook stays for the life of the process. */
static inline const struct rulebook *
fz_rules(void)
{
	static struct rulebook *rb;
	struct notes ns;
	const char *dir;
	size_t i;

	if (rb != NULL)
		return rb;
	dir = getenv("RW_RULES");
	if (dir == NULL || *dir == '\0')
		dir = TEST_SRCDIR "/rules";
	notes_init(&ns);
	rb = rulebook_new();
	if (rulebook_load_dir(rb, dir, &ns) != 0 || rulebook_finish(rb, &ns) != 0 ||
	    rb->nentries == 0) {
		fprintf(stderr, "fuzz: the rules in %s do not load (set RW_RULES):\n", dir);
		for (i = 0; i < ns.n; i++) {
			char *s = note_format(&ns.v[i]);

			fprintf(stderr, "  %s\n", s);
			free(s);
		}
		exit(2);
	}
	notes_release(&ns);
	return rb;
}

/* A matcher over fz_rules(), built and tuned once (on the rules' own
 * examples, a stand-in for a run's logs): building one per input would be
 * most of each input's time. */
static inline struct matcher *
fz_matcher(void)
{
	static struct matcher *m;
	const struct rulebook *rb;
	struct buf sample = BUF_INIT;
	size_t i, j;

	if (m != NULL)
		return m;
	rb = fz_rules();
	m = matcher_new(rb);
	for (i = 0; i < rb->nsigs; i++)
		for (j = 0; j < rb->sigs[i]->examples.n; j++) {
			buf_adds(&sample, rb->sigs[i]->examples.v[j]);
			buf_addc(&sample, '\n');
		}
	if (sample.len > 0)
		matcher_tune(m, sample.s, sample.len);
	buf_release(&sample);
	return m;
}

/* --- a strict JSON checker --------------------------------------------- */

struct fz_json {
	const unsigned char	*p, *end;
	int			 depth;
};

static int fz_json_value(struct fz_json *j);

static inline void
fz_json_ws(struct fz_json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' ||
	    *j->p == '\r'))
		j->p++;
}

static inline int
fz_json_lit(struct fz_json *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static inline int
fz_json_string(struct fz_json *j)
{
	size_t l;
	int i;

	if (j->p == j->end || *j->p != '"')
		return 0;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p < 0x20)
			return 0;	/* a raw control character */
		if (*j->p == '\\') {
			j->p++;
			if (j->p == j->end)
				return 0;
			if (*j->p == 'u') {
				for (i = 1; i <= 4; i++)
					if (j->p + i >= j->end || !((j->p[i] >= '0' && j->p[i] <= '9') ||
					    (j->p[i] >= 'a' && j->p[i] <= 'f') ||
					    (j->p[i] >= 'A' && j->p[i] <= 'F')))
						return 0;
				j->p += 5;
			} else if (strchr("\"\\/bfnrt", *j->p) != NULL && *j->p != '\0')
				j->p++;
			else
				return 0;
			continue;
		}
		if ((l = utf8_seqlen(j->p, (size_t)(j->end - j->p))) == 0)
			return 0;	/* invalid UTF-8 */
		j->p += l;
	}
	if (j->p == j->end)
		return 0;
	j->p++;
	return 1;
}

static inline int
fz_json_digits(struct fz_json *j)
{
	const unsigned char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static inline int
fz_json_number(struct fz_json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!fz_json_digits(j))
		return 0;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!fz_json_digits(j))
			return 0;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!fz_json_digits(j))
			return 0;
	}
	return 1;
}

static int
fz_json_value(struct fz_json *j)
{
	int first = 1;

	fz_json_ws(j);
	if (j->p == j->end || ++j->depth > 256)
		return 0;
	switch (*j->p) {
	case '{':
	case '[': {
		unsigned char close = *j->p == '{' ? '}' : ']';
		int obj = close == '}';

		j->p++;
		for (;;) {
			fz_json_ws(j);
			if (j->p < j->end && *j->p == close && first) {
				j->p++;
				break;
			}
			if (obj) {
				if (!fz_json_string(j))
					return 0;
				fz_json_ws(j);
				if (j->p == j->end || *j->p++ != ':')
					return 0;
			}
			if (!fz_json_value(j))
				return 0;
			fz_json_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				first = 0;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				break;
			}
			return 0;
		}
		break;
	}
	case '"':
		if (!fz_json_string(j))
			return 0;
		break;
	case 't':
		if (!fz_json_lit(j, "true"))
			return 0;
		break;
	case 'f':
		if (!fz_json_lit(j, "false"))
			return 0;
		break;
	case 'n':
		if (!fz_json_lit(j, "null"))
			return 0;
		break;
	default:
		if (!fz_json_number(j))
			return 0;
	}
	j->depth--;
	return 1;
}

/* 0 when s[0..n) is one JSON value (and white space), else the offset of
 * the trouble + 1. */
static inline size_t
fz_json_check(const char *s, size_t n)
{
	struct fz_json j = { (const unsigned char *)s, (const unsigned char *)s + n, 0 };

	if (!fz_json_value(&j))
		return (size_t)(j.p - (const unsigned char *)s) + 1;
	fz_json_ws(&j);
	return j.p == j.end ? 0 : (size_t)(j.p - (const unsigned char *)s) + 1;
}

/* --- the engine over a folder ---------------------------------------- */

/* Read the logs under dir as a finished run, analyse it and render the
 * JSON report, which must be well formed. */
static inline void
fz_pipeline(const char *dir)
{
	const struct rulebook *rb = fz_rules();
	const char *paths[1] = { dir };
	const struct report_format *f = report_format_find("json");
	const struct analysis *an;
	struct buf out = BUF_INIT;
	char *why = NULL;
	struct run_options opt;
	struct run *r;
	size_t bad;

	FZ_CHECK(f != NULL);
	memset(&opt, 0, sizeof opt);
	opt.matcher = fz_matcher();
	r = run_new(rb, paths, 1, &opt, &why);
	if (r == NULL) {
		free(why);
		return;
	}
	run_scan(r, 1);
	an = incident_analyse(r->incident);
	FZ_CHECK(an != NULL);
	FZ_CHECK(verdict_name(an->verdict) != NULL);
	report_render(f, r, &out);
	FZ_CHECK(out.s != NULL && out.len > 0);
	FZ_CHECK(strlen(out.s) == out.len);
	if ((bad = fz_json_check(out.s, out.len)) != 0) {
		size_t at = bad - 1, from = at > 60 ? at - 60 : 0;

		fprintf(stderr, "fuzz: the JSON report is not JSON at byte %zu: ...%.*s<HERE>%.20s\n",
		    at, (int)(at - from), out.s + from, out.s + at);
		abort();
	}
	(void)report_exit_status(an);
	buf_release(&out);
	run_free(r);
}

#endif
