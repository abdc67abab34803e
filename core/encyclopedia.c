/* encyclopedia.c: plain-text rendering of encyclopedia entries. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "encyclopedia.h"
#include "line.h"
#include "xmalloc.h"

void
encyclopedia_list(const struct rulebook *rb, struct buf *out)
{
	size_t i, w = 0;

	for (i = 0; i < rb->nentries; i++)
		if (strlen(rb->entries[i]->id) > w)
			w = strlen(rb->entries[i]->id);
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		buf_printf(out, "%-*s  %-13s  %-8s  ", (int)w, e->id, e->category,
		    e->severity);
		buf_add_safe(out, e->title, strlen(e->title));
		buf_addc(out, '\n');
	}
}

void
encyclopedia_wrap(struct buf *out, const char *s, const char *indent,
    const char *first, int width)
{
	const char *p = s;
	size_t col, ind = strlen(indent);
	int line = 0;

	while (*p != '\0') {
		const char *pre = line == 0 && first != NULL ? first : indent;

		while (*p == ' ' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		buf_adds(out, pre);
		col = strlen(pre);
		for (;;) {
			const char *w = p;
			size_t wl;

			while (*w != '\0' && *w != ' ' && *w != '\n')
				w++;
			wl = (size_t)(w - p);
			if (col > ind && col + 1 + wl > (size_t)width)
				break;
			if (col > strlen(pre))
				buf_addc(out, ' '), col++;
			buf_add_safe(out, p, wl);
			col += wl;
			p = w;
			while (*p == ' ')
				p++;
			if (*p == '\0' || *p == '\n')
				break;
		}
		buf_addc(out, '\n');
		line++;
		if (*p == '\n' && p[1] == '\n')
			buf_addc(out, '\n');
	}
}

static void
heading(struct buf *out, const char *h)
{
	buf_printf(out, "\n%s\n", h);
}

static void
list(struct buf *out, const char *h, const struct strlist *l, int width)
{
	size_t i;

	if (l->n == 0)
		return;
	heading(out, h);
	for (i = 0; i < l->n; i++)
		encyclopedia_wrap(out, l->v[i], "    ", "  - ", width);
}

void
encyclopedia_show(const struct entry *e, int width, struct buf *out)
{
	size_t i;

	buf_add_safe(out, e->title, strlen(e->title));
	buf_printf(out, "\n%s · %s · %s", e->id, e->category, e->severity);
	for (i = 0; i < e->tags.n; i++)
		buf_printf(out, "%s#%s", i ? " " : "  ", e->tags.v[i]);
	buf_addc(out, '\n');
	heading(out, "Summary");
	encyclopedia_wrap(out, e->summary, "  ", NULL, width);
	if (e->mechanism) {
		heading(out, "Mechanism");
		encyclopedia_wrap(out, e->mechanism, "  ", NULL, width);
	}
	list(out, "What you observe", &e->observe, width);
	if (e->nsymptoms) {
		heading(out, "Symptoms");
		for (i = 0; i < e->nsymptoms; i++) {
			encyclopedia_wrap(out, e->symptoms[i].symptom, "    ", "  - ", width);
			encyclopedia_wrap(out, e->symptoms[i].why, "      ", "    why: ", width);
			if (e->symptoms[i].signal)
				buf_printf(out, "    signal: %s\n", e->symptoms[i].signal);
		}
	}
	list(out, "Affected", &e->affected, width);
	list(out, "Root causes", &e->root_causes, width);
	if (e->nchecklist) {
		heading(out, "Confirmation checklist");
		for (i = 0; i < e->nchecklist; i++) {
			char num[32];

			snprintf(num, sizeof num, "  %zu. ", i + 1);
			encyclopedia_wrap(out, e->checklist[i].step, "     ", num, width);
			if (e->checklist[i].signal)
				buf_printf(out, "     (the log can show this: %s)\n",
				    e->checklist[i].signal);
		}
	}
	if (e->fix_steps.n || e->fix_verify) {
		list(out, "Fix", &e->fix_steps, width);
		if (e->fix_verify)
			encyclopedia_wrap(out, e->fix_verify, "    ", "  verify: ", width);
	}
	list(out, "Prevention", &e->prevention, width);
	if (e->fingerprint) {
		heading(out, "Fingerprint to monitor");
		encyclopedia_wrap(out, e->fingerprint, "  ", NULL, width);
	}
	if (e->scaling) {
		heading(out, "From 1 GPU to 1000");
		encyclopedia_wrap(out, e->scaling, "  ", NULL, width);
	}
	list(out, "Related", &e->related, width);
	if (e->nrefs) {
		heading(out, "References");
		for (i = 0; i < e->nrefs; i++) {
			buf_adds(out, "  - ");
			if (e->refs[i].title) {
				buf_add_safe(out, e->refs[i].title, strlen(e->refs[i].title));
				buf_adds(out, ": ");
			}
			buf_add_safe(out, e->refs[i].url, strlen(e->refs[i].url));
			buf_addc(out, '\n');
		}
	}
	if (e->nenv) {
		heading(out, "Environment variables");
		for (i = 0; i < e->nenv; i++) {
			buf_printf(out, "  %s\n", e->env[i].name);
			encyclopedia_wrap(out, e->env[i].shows, "      ", "      ", width);
		}
	}
	if (e->nsigs) {
		heading(out, "Signatures");
		for (i = 0; i < e->nsigs; i++)
			buf_printf(out, "  %-24s %s\n", e->sigs[i].id, role_name(e->sigs[i].role));
	}
}

/* The message part of a signature's first example, as the log shows it. */
static void
example_message(const struct signature *s, struct buf *out, size_t max)
{
	struct linestate ls;
	struct line ln;
	const char *ex;

	if (s->message != NULL) {
		buf_add_safe(out, s->message, strlen(s->message));
		return;
	}
	if (s->examples.n == 0) {
		buf_add_safe(out, s->pattern, strlen(s->pattern) < max ? strlen(s->pattern) : max);
		return;
	}
	ex = s->examples.v[0];
	linestate_init(&ls, -1, -1, 0);
	line_parse(&ls, ex, strlen(ex), &ln);
	buf_add_safe(out, ln.msg, ln.msglen < max ? ln.msglen : max);
	if (ln.msglen > max)
		buf_adds(out, "...");
}

static const char *const cats[] = { "communication", "model", "data",
    "memory", "hardware", "process", "environment", "storage", "performance" };

/* An error message's signature: what --errors lists. */
static int
is_error(const struct signature *s)
{
	return s->role == ROLE_INITIATING || s->role == ROLE_COLLATERAL ||
	    s->role == ROLE_SYMPTOM;
}

/* Each environment variable the entries name, once, with the entries
 * naming it and the first entry's words for it. */
struct envseen {
	const char	 *name;
	const char	 *shows;
	const char	**ids;
	size_t		  nids, cap;
};

static struct envseen *
env_collect(const struct rulebook *rb, size_t *nenvp)
{
	struct envseen *env = NULL;
	size_t nenv = 0, capenv = 0, i, j, k;

	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		for (j = 0; j < e->nenv; j++) {
			for (k = 0; k < nenv; k++)
				if (strcmp(env[k].name, e->env[j].name) == 0)
					break;
			if (k == nenv) {
				XGROW(env, capenv, nenv + 1);
				env[k].name = e->env[j].name;
				env[k].shows = e->env[j].shows;
				env[k].ids = NULL;
				env[k].nids = env[k].cap = 0;
				nenv++;
			}
			XGROW(env[k].ids, env[k].cap, env[k].nids + 1);
			env[k].ids[env[k].nids++] = e->id;
		}
	}
	*nenvp = nenv;
	return env;
}

void
encyclopedia_errors(const struct rulebook *rb, int width, struct buf *out)
{
	size_t c, i, j, k, max = width > 40 ? (size_t)width - 8 : 32;
	struct envseen *env;
	size_t nenv;

	buf_adds(out, "Errors the encyclopedia knows, by category: the message as the log\n"
	    "shows it, then the entry it leads to and what it means for the rank\n"
	    "that prints it (initiating: its own failure; collateral: fallout of a\n"
	    "failure elsewhere; symptom: a sign, not a failure).\n");
	for (c = 0; c < sizeof cats / sizeof *cats; c++) {
		int head = 0;

		for (i = 0; i < rb->nentries; i++) {
			const struct entry *e = rb->entries[i];

			if (strcmp(e->category, cats[c]) != 0)
				continue;
			for (j = 0; j < e->nsigs; j++) {
				const struct signature *s = &e->sigs[j];

				if (!is_error(s))
					continue;
				if (!head) {
					buf_printf(out, "\n%s\n", cats[c]);
					head = 1;
				}
				buf_adds(out, "  ");
				example_message(s, out, max);
				buf_printf(out, "\n      -> %s (%s)\n", e->id, role_name(s->role));
			}
		}
	}
	env = env_collect(rb, &nenv);
	if (nenv > 0) {
		buf_adds(out, "\nEnvironment variables that tell them apart\n");
		for (k = 0; k < nenv; k++) {
			struct buf ids = BUF_INIT;

			buf_printf(out, "\n  %s\n", env[k].name);
			encyclopedia_wrap(out, env[k].shows, "      ", "      ", width);
			for (i = 0; i < env[k].nids; i++)
				buf_printf(&ids, "%s%s", i ? ", " : "", env[k].ids[i]);
			encyclopedia_wrap(out, ids.s, "      ", "      entries: ", width);
			buf_release(&ids);
			free(env[k].ids);
		}
	}
	free(env);
}

/* --- JSON ---------------------------------------------------------------- */

static void
jkey(struct buf *out, int *first, const char *key)
{
	buf_adds(out, *first ? "{" : ", ");
	*first = 0;
	buf_add_jstr(out, key);
	buf_adds(out, ": ");
}

static void
jstrs(struct buf *out, const struct strlist *l)
{
	size_t i;

	buf_addc(out, '[');
	for (i = 0; i < l->n; i++) {
		if (i)
			buf_adds(out, ", ");
		buf_add_jstr(out, l->v[i]);
	}
	buf_addc(out, ']');
}

/* One object of string fields {"names[0]": v[0], ...}, after a comma
 * unless it is the first (i == 0) of its array. */
static void
jobj(struct buf *out, size_t i, const char *const *names, const char *const *v, size_t n)
{
	size_t k;

	buf_adds(out, i ? ", {" : "{");
	for (k = 0; k < n; k++) {
		if (k)
			buf_adds(out, ", ");
		buf_add_jstr(out, names[k]);
		buf_adds(out, ": ");
		buf_add_jstr(out, v[k]);
	}
	buf_addc(out, '}');
}

void
encyclopedia_list_json(const struct rulebook *rb, struct buf *out)
{
	size_t i;

	buf_addc(out, '[');
	for (i = 0; i < rb->nentries; i++) {
		const struct entry *e = rb->entries[i];

		buf_adds(out, i ? ",\n {\"id\": " : "{\"id\": ");
		buf_add_jstr(out, e->id);
		buf_adds(out, ", \"category\": ");
		buf_add_jstr(out, e->category);
		buf_adds(out, ", \"severity\": ");
		buf_add_jstr(out, e->severity);
		buf_adds(out, ", \"title\": ");
		buf_add_jstr(out, e->title);
		buf_adds(out, ", \"file\": ");
		buf_add_jstr(out, e->file);
		buf_addc(out, '}');
	}
	buf_adds(out, "]\n");
}

void
encyclopedia_show_json(const struct entry *e, struct buf *out)
{
	size_t i;
	int first = 1;

#define S(key, v)  do { jkey(out, &first, key); buf_add_jstr(out, v); } while (0)
#define L(key, l)  do { jkey(out, &first, key); jstrs(out, l); } while (0)
	S("id", e->id);
	S("title", e->title);
	S("category", e->category);
	S("severity", e->severity);
	L("tags", &e->tags);
	S("file", e->file);
	S("summary", e->summary);
	S("mechanism", e->mechanism);
	L("observe", &e->observe);
	jkey(out, &first, "symptoms");
	buf_addc(out, '[');
	for (i = 0; i < e->nsymptoms; i++) {
		static const char *const names[] = { "symptom", "why", "signal" };
		const char *v[] = { e->symptoms[i].symptom, e->symptoms[i].why, e->symptoms[i].signal };

		jobj(out, i, names, v, 3);
	}
	buf_addc(out, ']');
	L("affected", &e->affected);
	L("root_causes", &e->root_causes);
	jkey(out, &first, "checklist");
	buf_addc(out, '[');
	for (i = 0; i < e->nchecklist; i++) {
		static const char *const names[] = { "step", "signal" };
		const char *v[] = { e->checklist[i].step, e->checklist[i].signal };

		jobj(out, i, names, v, 2);
	}
	buf_addc(out, ']');
	jkey(out, &first, "fix");
	buf_adds(out, "{\"steps\": ");
	jstrs(out, &e->fix_steps);
	buf_adds(out, ", \"verify\": ");
	buf_add_jstr(out, e->fix_verify);
	buf_addc(out, '}');
	L("prevention", &e->prevention);
	S("fingerprint", e->fingerprint);
	S("scaling", e->scaling);
	L("related", &e->related);
	jkey(out, &first, "references");
	buf_addc(out, '[');
	for (i = 0; i < e->nrefs; i++) {
		static const char *const names[] = { "title", "url" };
		const char *v[] = { e->refs[i].title, e->refs[i].url };

		jobj(out, i, names, v, 2);
	}
	buf_addc(out, ']');
	jkey(out, &first, "env");
	buf_addc(out, '[');
	for (i = 0; i < e->nenv; i++) {
		static const char *const names[] = { "name", "shows" };
		const char *v[] = { e->env[i].name, e->env[i].shows };

		jobj(out, i, names, v, 2);
	}
	buf_addc(out, ']');
	jkey(out, &first, "signatures");
	buf_addc(out, '[');
	for (i = 0; i < e->nsigs; i++) {
		const struct signature *s = &e->sigs[i];

		buf_adds(out, i ? ", {\"id\": " : "{\"id\": ");
		buf_add_jstr(out, s->id);
		buf_adds(out, ", \"role\": ");
		buf_add_jstr(out, role_name(s->role));
		buf_adds(out, ", \"pattern\": ");
		buf_add_jstr(out, s->pattern);
		buf_adds(out, ", \"message\": ");
		buf_add_jstr(out, s->message);
		buf_adds(out, ", \"examples\": ");
		jstrs(out, &s->examples);
		buf_adds(out, ", \"counterexamples\": ");
		jstrs(out, &s->counterexamples);
		buf_addc(out, '}');
	}
	buf_addc(out, ']');
	jkey(out, &first, "conditions");
	buf_addc(out, '[');
	for (i = 0; i < e->nconds; i++) {
		static const char *const names[] = { "id", "text" };
		const char *v[] = { e->conds[i].id, e->conds[i].text };

		jobj(out, i, names, v, 2);
	}
	buf_adds(out, "]}\n");
#undef S
#undef L
}

void
encyclopedia_errors_json(const struct rulebook *rb, struct buf *out)
{
	size_t c, i, j, k, n = 0, nenv;
	struct envseen *env;

	buf_adds(out, "{\"errors\": [");
	for (c = 0; c < sizeof cats / sizeof *cats; c++)
		for (i = 0; i < rb->nentries; i++) {
			const struct entry *e = rb->entries[i];

			if (strcmp(e->category, cats[c]) != 0)
				continue;
			for (j = 0; j < e->nsigs; j++) {
				const struct signature *s = &e->sigs[j];
				struct buf m = BUF_INIT;

				if (!is_error(s))
					continue;
				example_message(s, &m, (size_t)-1);
				buf_adds(out, n++ ? ",\n  {\"category\": " : "\n  {\"category\": ");
				buf_add_jstr(out, cats[c]);
				buf_adds(out, ", \"entry\": ");
				buf_add_jstr(out, e->id);
				buf_adds(out, ", \"signature\": ");
				buf_add_jstr(out, s->id);
				buf_adds(out, ", \"role\": ");
				buf_add_jstr(out, role_name(s->role));
				buf_adds(out, ", \"message\": ");
				buf_add_jstr(out, m.s ? m.s : "");
				buf_addc(out, '}');
				buf_release(&m);
			}
		}
	buf_adds(out, "],\n \"env\": [");
	env = env_collect(rb, &nenv);
	for (k = 0; k < nenv; k++) {
		buf_adds(out, k ? ",\n  {\"name\": " : "\n  {\"name\": ");
		buf_add_jstr(out, env[k].name);
		buf_adds(out, ", \"shows\": ");
		buf_add_jstr(out, env[k].shows);
		buf_adds(out, ", \"entries\": [");
		for (i = 0; i < env[k].nids; i++) {
			if (i)
				buf_adds(out, ", ");
			buf_add_jstr(out, env[k].ids[i]);
		}
		buf_adds(out, "]}");
		free(env[k].ids);
	}
	free(env);
	buf_adds(out, "]}\n");
}
