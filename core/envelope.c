/* envelope.c: Kubernetes' and the log stores' wrapping of a log line:
 * kubectl and stern prefixes, CRI log files, JSON records and documents
 * (jansson), and the rank a pod's name gives (core/layouts.h). */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "envelope.h"
#include "layouts.h"
#include "xmalloc.h"

/* --- pods ------------------------------------------------------------------ */

void
envstate_init(struct envstate *es)
{
	memset(es, 0, sizeof *es);
	es->lastindex = -1;
}

void
envstate_release(struct envstate *es)
{
	pcre2_match_data_free(es->md);
	es->md = NULL;
	free(es->lastpod);
	es->lastpod = NULL;
}

int
envstate_backwards(struct envstate *es)
{
	if (es->noted || es->backward < 16 || es->backward < 4 * es->forward)
		return 0;
	es->noted = 1;
	return 1;
}

static pcre2_match_data *
md_of(struct envstate *es)
{
	if (es->md == NULL)
		es->md = pcre2_match_data_create(16, NULL);
	return es->md;
}

/* Named group `name` of the last match into out (size ENVELOPE_NAME_MAX):
 * 1 when it took part. */
static int
group(const pcre2_code *re, pcre2_match_data *md, const char *subject, const char *name,
    char *out)
{
	int k = pcre2_substring_number_from_name(re, (PCRE2_SPTR)name);
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	size_t n;

	if (k <= 0 || (uint32_t)k >= pcre2_get_ovector_count(md) || ov[2 * k] == PCRE2_UNSET)
		return 0;
	n = ov[2 * k + 1] - ov[2 * k];
	if (n >= ENVELOPE_NAME_MAX)
		n = ENVELOPE_NAME_MAX - 1;
	memcpy(out, subject + ov[2 * k], n);
	out[n] = '\0';
	return 1;
}

int
envelope_pod_index(const struct layouts *l, struct envstate *es, const char *pod, size_t n)
{
	char num[ENVELOPE_NAME_MAX], role[ENVELOPE_NAME_MAX];
	size_t i, j;
	int index = -1;

	if (l == NULL || n == 0 || n >= ENVELOPE_NAME_MAX)
		return -1;
	if (es->lastpod != NULL && strncmp(es->lastpod, pod, n) == 0 && es->lastpod[n] == '\0')
		return es->lastindex;
	for (i = 0; i < l->npods && index < 0; i++) {
		const struct podrule *r = &l->pods[i];
		char *end;
		long v;

		if (pcre2_match(r->re, (PCRE2_SPTR)pod, n, 0, 0, md_of(es), NULL) < 0 ||
		    !group(r->re, es->md, pod, "index", num))
			continue;
		v = strtol(num, &end, 10);
		if (*end != '\0' || v < 0 || v > 1 << 20)
			continue;
		if (r->nroles > 0 && group(r->re, es->md, pod, "role", role))
			for (j = 0; j < r->nroles; j++)
				if (strcmp(r->roles[j], role) == 0)
					v += r->adds[j];
		index = (int)v;
	}
	free(es->lastpod);
	es->lastpod = xstrndup(pod, n);
	es->lastindex = index;
	return index;
}

/* --- time -------------------------------------------------------------------- */

static int
dig(int c)
{
	return c >= '0' && c <= '9';
}

static int
num(const char *p, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++)
		v = v * 10 + (p[i] - '0');
	return v;
}

/* RFC 3339 at p: 2024-05-02T10:11:12[.frac](Z|+hh:mm|-hh:mm), also with
 * a space for the T; its length, and its UTC epoch time. A time without
 * a zone is not RFC 3339 (its zone would be a guess): 0. */
static size_t
rfc3339(const char *p, size_t n, int64_t *sec, int32_t *nsec)
{
	size_t i = 19;
	int32_t frac = 0;
	int fd = 0, off = 0;

	if (n < 20 || !dig(p[0]) || !dig(p[1]) || !dig(p[2]) || !dig(p[3]) || p[4] != '-' ||
	    !dig(p[5]) || !dig(p[6]) || p[7] != '-' || !dig(p[8]) || !dig(p[9]) ||
	    (p[10] != 'T' && p[10] != ' ') || !dig(p[11]) || !dig(p[12]) || p[13] != ':' ||
	    !dig(p[14]) || !dig(p[15]) || p[16] != ':' || !dig(p[17]) || !dig(p[18]))
		return 0;
	if (i < n && (p[i] == '.' || p[i] == ',')) {
		for (i++; i < n && dig(p[i]); i++, fd++)
			if (fd < 9)
				frac = frac * 10 + (p[i] - '0');
		if (fd == 0)
			return 0;
		for (; fd < 9; fd++)
			frac *= 10;
	}
	if (i < n && p[i] == 'Z')
		i++;
	else if (i + 6 <= n && (p[i] == '+' || p[i] == '-') && dig(p[i + 1]) && dig(p[i + 2]) &&
	    p[i + 3] == ':' && dig(p[i + 4]) && dig(p[i + 5])) {
		off = (num(p + i + 1, 2) * 60 + num(p + i + 4, 2)) * 60;
		if (p[i] == '-')
			off = -off;
		i += 6;
	} else
		return 0;
	*sec = stamp_days_from_civil(num(p, 4), num(p + 5, 2), num(p + 8, 2)) * 86400 +
	    num(p + 11, 2) * 3600 + num(p + 14, 2) * 60 + num(p + 17, 2) - off;
	*nsec = frac;
	return i;
}

/* An epoch number in seconds, milliseconds, microseconds or nanoseconds
 * (by its size: a training log is from after 2001); 0 for one of 20
 * digits and more, whose seconds would not fit in an int64_t. */
static int
epoch_any(long double v, struct stamp *ts)
{
	int64_t sec;
	int32_t nsec;

	if (!(v < 1e20L))
		return 0;
	if (v >= 1e17L)
		v /= 1e9L;
	else if (v >= 1e14L)
		v /= 1e6L;
	else if (v >= 1e11L)
		v /= 1e3L;
	sec = (int64_t)v;
	nsec = (int32_t)((v - (long double)sec) * 1e9L);
	stamp_from_epoch(sec, nsec, ts);
	ts->flags |= STAMP_FRAC;
	return 1;
}

static int
time_of(const char *p, size_t n, struct stamp *ts)
{
	int64_t sec;
	int32_t nsec;
	size_t i;

	/* rfc3339's 0 is no time, with sec and nsec not set: "" is none */
	if (n > 0 && rfc3339(p, n, &sec, &nsec) == n) {
		stamp_from_epoch(sec, nsec, ts);
		ts->flags |= STAMP_FRAC;
		return 1;
	}
	for (i = 0; i < n && dig(p[i]); i++)
		;
	if (n >= 9 && n <= 20 && i == n) {
		long double v = 0;

		for (i = 0; i < n; i++)
			v = v * 10 + (p[i] - '0');
		return epoch_any(v, ts);
	}
	return 0;
}

/* --- prefixes ------------------------------------------------------------------ */

static void
name_copy(char *out, const char *p, size_t n)
{
	if (n >= ENVELOPE_NAME_MAX)
		n = ENVELOPE_NAME_MAX - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* A timestamp and a space after a prefix (kubectl --timestamps, stern -t). */
static size_t
leading_time(const char *p, size_t n, struct stamp *ts)
{
	int64_t sec;
	int32_t nsec;
	size_t l = rfc3339(p, n, &sec, &nsec);

	if (l == 0 || l >= n || p[l] != ' ')
		return 0;
	stamp_from_epoch(sec, nsec, ts);
	ts->flags |= STAMP_FRAC;
	return l + 1;
}

/* "[pod/<pod>/<container>] " */
static int
take_kubectl(const char *p, size_t n, struct envelope *out)
{
	const char *slash, *close, *q;
	size_t l, m;

	if (n < 9 || memcmp(p, "[pod/", 5) != 0 ||
	    (close = memchr(p, ']', n < 400 ? n : 400)) == NULL ||
	    (size_t)(close - p) + 1 >= n || close[1] != ' ' ||
	    (slash = memchr(p + 5, '/', (size_t)(close - p - 5))) == NULL || slash == p + 5)
		return 0;
	name_copy(out->pod, p + 5, (size_t)(slash - p - 5));
	name_copy(out->container, slash + 1, (size_t)(close - slash - 1));
	q = close + 2;
	m = n - (size_t)(q - p);
	l = leading_time(q, m, &out->ts);
	out->text = q + l;
	out->len = m - l;
	out->kind = ENV_KUBECTL;
	return 1;
}

/* An SGR colour code ("\033[96m", "\033[0m") at p: its length. */
static size_t
sgr(const char *p, size_t n)
{
	size_t i;

	if (n < 3 || p[0] != 0x1b || p[1] != '[')
		return 0;
	for (i = 2; i < n && i < 12 && (dig(p[i]) || p[i] == ';'); i++)
		;
	return i < n && p[i] == 'm' ? i + 1 : 0;
}

/* A name stern printed, perhaps in colour, and the space after it: the
 * bytes it takes, 0 when p does not start with one, or with one of a
 * pod's characters (lower case letters, digits, '-', and with dot '.'):
 * most lines fail at their first word's first other byte. */
static size_t
stern_word(const char *p, size_t n, int dot, const char **w, size_t *wl, int *coloured)
{
	size_t i = sgr(p, n), l, j;

	*coloured |= i > 0;
	*w = p + i;
	for (l = 0; i + l < n && p[i + l] != ' ' && p[i + l] != 0x1b; l++) {
		char c = p[i + l];

		if (!((c >= 'a' && c <= 'z') || dig(c) || c == '-' || (dot && c == '.')))
			return 0;
	}
	j = i + l;
	j += sgr(p + j, n - j);
	if (l == 0 || j >= n || p[j] != ' ')
		return 0;
	*wl = l;
	return j + 1;
}

/* "<pod> <container> [<RFC3339> ]line", only where it is sure: in colour,
 * with a time, or with a pod named as an operator names its pods. */
static int
take_stern(const struct layouts *l, struct envstate *es, const char *p, size_t n,
    struct envelope *out)
{
	const char *pod, *ctr;
	size_t pl, cl, a, b, t;
	int coloured = 0;

	if ((a = stern_word(p, n, 1, &pod, &pl, &coloured)) == 0 ||
	    (b = stern_word(p + a, n - a, 0, &ctr, &cl, &coloured)) == 0)
		return 0;
	t = leading_time(p + a + b, n - a - b, &out->ts);
	if (!coloured && t == 0 && es->seen != ENV_STERN && envelope_pod_index(l, es, pod, pl) < 0)
		return 0;
	name_copy(out->pod, pod, pl);
	name_copy(out->container, ctr, cl);
	out->text = p + a + b + t;
	out->len = n - a - b - t;
	out->kind = ENV_STERN;
	return 1;
}

/* --- JSON records ---------------------------------------------------------------- */

/* A field by its path: "a.b.c" as nested objects, or as a key with dots
 * at any level (shippers write both). */
static json_t *
lookup(json_t *o, const char *path)
{
	const char *d;
	json_t *v;

	if (!json_is_object(o))
		return NULL;
	if ((v = json_object_get(o, path)) != NULL)
		return v;
	for (d = strchr(path, '.'); d != NULL; d = strchr(d + 1, '.')) {
		char head[128];
		size_t hl = (size_t)(d - path);

		if (hl >= sizeof head)
			break;
		memcpy(head, path, hl);
		head[hl] = '\0';
		if ((v = json_object_get(o, head)) != NULL && (v = lookup(v, d + 1)) != NULL)
			return v;
	}
	return NULL;
}

/* A field's text: a string, the first string of an array (Elasticsearch
 * "fields"), or bytes given as numbers (journald's non-UTF-8 MESSAGE). */
static int
text_of(json_t *v, struct buf *out)
{
	size_t i;

	if (json_is_string(v)) {
		buf_add(out, json_string_value(v), json_string_length(v));
		return 1;
	}
	if (json_is_array(v) && json_array_size(v) > 0 && json_is_string(json_array_get(v, 0)))
		return text_of(json_array_get(v, 0), out);
	if (json_is_array(v) && json_array_size(v) > 0) {
		for (i = 0; i < json_array_size(v); i++) {
			json_t *b = json_array_get(v, i);

			if (!json_is_integer(b) || json_integer_value(b) < 0 ||
			    json_integer_value(b) > 255)
				return 0;
		}
		for (i = 0; i < json_array_size(v); i++) {
			char c = (char)json_integer_value(json_array_get(v, i));

			buf_add(out, &c, 1);
		}
		return 1;
	}
	return 0;
}

static json_t *
first_field(const struct layouts *l, enum field f, json_t *rec)
{
	size_t i;
	json_t *v;

	for (i = 0; i < l->nfields[f]; i++)
		if ((v = lookup(rec, l->fields[f][i])) != NULL && !json_is_null(v))
			return v;
	return NULL;
}

static void
name_field(const struct layouts *l, enum field f, json_t *rec, char *out)
{
	struct buf b = BUF_INIT;
	json_t *v;

	if (out[0] != '\0' || (v = first_field(l, f, rec)) == NULL)
		return;
	if (text_of(v, &b) && b.len > 0)
		name_copy(out, b.s, b.len);
	buf_release(&b);
}

static int
record_time(const struct layouts *l, json_t *rec, struct stamp *ts)
{
	json_t *v = first_field(l, F_TIME, rec);

	if (v == NULL)
		return 0;
	if (json_is_integer(v) || json_is_real(v)) {
		long double d = json_is_integer(v) ? (long double)json_integer_value(v) :
		    (long double)json_real_value(v);

		if (d <= 0)
			return 0;
		return epoch_any(d, ts);
	}
	return json_is_string(v) && time_of(json_string_value(v), json_string_length(v), ts);
}

/* The record rec (perhaps inside a hit's _source) into out, its message
 * into scratch. depth: a message that is itself a record (CloudWatch
 * Container Insights) is read once more. */
static int
from_record(const struct layouts *l, struct envstate *es, json_t *rec,
    struct envelope *out, struct buf *scratch, int depth)
{
	json_t *v, *in;
	size_t i;

	for (i = 0; i < l->nfields[F_INSIDE]; i++)
		if (json_is_object(in = lookup(rec, l->fields[F_INSIDE][i])))
			rec = in;
	if ((v = first_field(l, F_MESSAGE, rec)) == NULL)
		return 0;
	buf_clear(scratch);
	if (!text_of(v, scratch))
		return 0;
	if (!(out->ts.flags & STAMP_TIME))
		(void)record_time(l, rec, &out->ts);
	name_field(l, F_POD, rec, out->pod);
	name_field(l, F_NODE, rec, out->node);
	name_field(l, F_CONTAINER, rec, out->container);
	for (i = 0; i < l->nderives; i++) {
		const struct derive *d = &l->derives[i];
		json_t *f = lookup(rec, d->from);

		if (!json_is_string(f) || pcre2_match(d->re, (PCRE2_SPTR)json_string_value(f),
		    json_string_length(f), 0, 0, md_of(es), NULL) < 0)
			continue;
		if (out->pod[0] == '\0')
			(void)group(d->re, es->md, json_string_value(f), "pod", out->pod);
		if (out->node[0] == '\0')
			(void)group(d->re, es->md, json_string_value(f), "node", out->node);
		if (out->container[0] == '\0')
			(void)group(d->re, es->md, json_string_value(f), "container", out->container);
	}
	if (depth == 0 && scratch->len > 1 && scratch->s[0] == '{') {
		json_error_t err;
		json_t *inner = json_loadb(scratch->s, scratch->len, 0, &err);
		struct envelope keep = *out;
		int ok = inner != NULL && from_record(l, es, inner, out, scratch, 1);

		json_decref(inner);
		if (!ok) {
			*out = keep;
			buf_clear(scratch);
			(void)text_of(v, scratch);
		}
	}
	while (scratch->len > 0 && (scratch->s[scratch->len - 1] == '\n' ||
	    scratch->s[scratch->len - 1] == '\r'))
		scratch->s[--scratch->len] = '\0';
	out->text = scratch->s != NULL ? scratch->s : "";
	out->len = scratch->len;
	out->decoded = 1;
	out->kind = ENV_JSON;
	return 1;
}

static int
take_json(const struct layouts *l, struct envstate *es, const char *p, size_t n,
    struct envelope *out, struct buf *scratch)
{
	json_error_t err;
	json_t *rec;
	int ok;

	if (n < 2 || p[0] != '{' || p[n - 1] != '}')
		return 0;
	if ((rec = json_loadb(p, n, 0, &err)) == NULL)
		return 0;
	ok = from_record(l, es, rec, out, scratch, 0);
	json_decref(rec);
	return ok;
}

static void
envelope_clear(struct envelope *out, const char *raw, size_t len)
{
	out->kind = ENV_NONE;
	out->text = raw;
	out->len = len;
	out->decoded = 0;
	out->pod[0] = out->node[0] = out->container[0] = '\0';
	out->index = -1;
	memset(&out->ts, 0, sizeof out->ts);
}

int
envelope_take(const struct layouts *l, struct envstate *es, const char *raw, size_t len,
    struct envelope *out, struct buf *scratch)
{
	const char *p = raw;
	size_t n = len, t;
	int found = 0;

	if (l == NULL || n == 0)
		return 0;
	envelope_clear(out, raw, len);
	if (p[0] == 0x1e && n > 1) {	/* json-seq's record separator */
		p++;
		n--;
	} else if (n > 6 && memcmp(p, "data: {", 7) == 0) {	/* journalctl -o json-sse */
		p += 6;
		n -= 6;
	}
	out->text = p;
	if (n > 5 && p[0] == '[' && p[1] == 'p')
		found = take_kubectl(p, n, out);
	else if (p[0] == '{')
		found = take_json(l, es, p, n, out, scratch);
	else if (dig(p[0]) && (es->seen == ENV_CRI || es->seen == ENV_JSON ||
	    (es->seen == ENV_NONE && es->tries < ENVELOPE_TRIES)) &&
	    (t = leading_time(p, n, &out->ts)) > 0) {
		/* CRI: "<time> stdout|stderr P|F line" */
		const char *q = p + t;
		size_t m = n - t, s = 0, k;

		if (m > 7 && (memcmp(q, "stdout ", 7) == 0 || memcmp(q, "stderr ", 7) == 0))
			s = 7;
		if (s > 0 && s + 2 <= m && (q[s] == 'P' || q[s] == 'F')) {
			for (k = s + 1; k < m && q[k] != ' '; k++)
				;	/* more tags, ":"-separated */
			out->text = k < m ? q + k + 1 : q + m;
			out->len = k < m ? m - k - 1 : 0;
			out->kind = ENV_CRI;
			found = 1;
		} else {
			/* "<time> {record}" (CloudWatch's S3 export), "<time> <stream>
			 * {record}" (aws logs tail) */
			struct stamp outer = out->ts;

			if (m > 0 && q[0] != '{')
				for (k = 0; k < m && k < 512 && q[k] != ' '; k++)
					if (k + 2 < m && q[k + 1] == ' ' && q[k + 2] == '{') {
						q += k + 2;
						m -= k + 2;
						break;
					}
			if (m > 0 && q[0] == '{' && take_json(l, es, q, m, out, scratch)) {
				if (!(out->ts.flags & STAMP_TIME) || out->ts.sec == 0)
					out->ts = outer;
				found = 1;
			}
		}
		if (!found)
			memset(&out->ts, 0, sizeof out->ts);
	}
	if (!found && (es->seen == ENV_STERN || (es->seen == ENV_NONE && es->tries < ENVELOPE_TRIES)) &&
	    n > 4 && (p[0] == 0x1b || (p[0] >= 'a' && p[0] <= 'z') || dig(p[0])))
		found = take_stern(l, es, p, n, out);
	if (!found) {
		envelope_clear(out, raw, len);
		if (es->seen == ENV_NONE && es->tries < ENVELOPE_TRIES)
			es->tries++;
		return 0;
	}
	es->seen = (uint8_t)out->kind;
	if (out->pod[0] != '\0')
		out->index = envelope_pod_index(l, es, out->pod, strlen(out->pod));
	/* the order of records in nanoseconds, which an int64_t holds for
	 * 285 years either side of 1970: a time outside says nothing of it */
	if ((out->ts.flags & STAMP_TIME) && out->ts.sec > -9000000000 &&
	    out->ts.sec < 9000000000) {
		int64_t ns = out->ts.sec * 1000000000 + out->ts.nsec;

		if (es->lastns != 0 && ns > es->lastns)
			es->forward++;
		else if (es->lastns != 0 && ns < es->lastns)
			es->backward++;
		es->lastns = ns;
	}
	return 1;
}

/* --- whole documents -------------------------------------------------------------- */

int
envelope_is_document(const char *text, size_t n)
{
	const char *nl;
	size_t i = 0, ll;

	while (i < n && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	if (i >= n || (text[i] != '{' && text[i] != '['))
		return 0;
	if (text[i] == '[') {
		/* an array of records: "[{", "[\n  {"; not a log's "[rank0]:" */
		size_t j = i + 1;

		while (j < n && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' ||
		    text[j] == '\n'))
			j++;
		return j < n && text[j] == '{';
	}
	/* one record per line ends its first line with its closing brace */
	nl = memchr(text + i, '\n', n - i);
	ll = nl != NULL ? (size_t)(nl - text - i) : n - i;
	while (ll > 0 && (text[i + ll - 1] == ' ' || text[i + ll - 1] == '\r'))
		ll--;
	return text[i + ll - 1] != '}';
}

struct docrec {
	json_t		*rec;
	struct stamp	 ts;
	size_t		 at;
};

static int
docrec_cmp(const void *a, const void *b)
{
	const struct docrec *x = a, *y = b;
	int tx = (x->ts.flags & STAMP_TIME) != 0, ty = (y->ts.flags & STAMP_TIME) != 0, c;

	/* (timed, time, place): the few untimed at the head first */
	if (tx != ty)
		return tx - ty;
	if (tx && (c = stamp_cmp(&x->ts, &y->ts)) != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

long
envelope_document(const struct layouts *l, struct envstate *es, const char *text, size_t len,
    void (*fn)(void *arg, const struct envelope *env), void *arg, char **why,
    unsigned long *line)
{
	json_error_t err;
	json_t *doc, *list = NULL;
	struct docrec *v;
	struct buf scratch = BUF_INIT;
	size_t n, i, k;
	long done = 0;

	*why = NULL;
	*line = 0;
	if (l == NULL)
		return 0;
	if ((doc = json_loadb(text, len, 0, &err)) == NULL) {
		*why = xasprintf("not JSON: %s", err.text);
		*line = (unsigned long)(err.line > 0 ? err.line : 0);
		return -1;
	}
	if (json_is_array(doc))
		list = doc;
	for (i = 0; list == NULL && i < l->nfields[F_LISTS]; i++)
		if (json_is_array(lookup(doc, l->fields[F_LISTS][i])))
			list = lookup(doc, l->fields[F_LISTS][i]);
	if (list == NULL) {
		json_decref(doc);
		return 0;
	}
	n = json_array_size(list);
	v = xcalloc(n + 1, sizeof *v);
	for (i = k = 0; i < n; i++) {
		json_t *rec = json_array_get(list, i), *in;
		size_t j;

		if (!json_is_object(rec))
			continue;
		v[k].rec = rec;
		v[k].at = i;
		in = rec;
		for (j = 0; j < l->nfields[F_INSIDE]; j++)
			if (json_is_object(lookup(rec, l->fields[F_INSIDE][j])))
				in = lookup(rec, l->fields[F_INSIDE][j]);
		/* a record without a time goes with the one before it */
		if (!record_time(l, in, &v[k].ts) && k > 0)
			v[k].ts = v[k - 1].ts;
		k++;
	}
	/* hits come in score order, Loki and CloudWatch newest first: oldest
	 * first, as a log is written */
	qsort(v, k, sizeof *v, docrec_cmp);
	for (i = 0; i < k; i++) {
		struct envelope env;

		envelope_clear(&env, "", 0);
		if (!from_record(l, es, v[i].rec, &env, &scratch, 0))
			continue;
		if (env.pod[0] != '\0')
			env.index = envelope_pod_index(l, es, env.pod, strlen(env.pod));
		fn(arg, &env);
		done++;
	}
	free(v);
	buf_release(&scratch);
	json_decref(doc);
	if (done > 0)
		es->seen = (uint8_t)ENV_JSON;
	return done;
}
