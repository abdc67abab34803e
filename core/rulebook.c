/* rulebook.c: load encyclopedia entries from YAML, all or nothing per file. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "buf.h"
#include "layouts.h"
#include "rulebook.h"
#include "yamlmap.h"
#include "xmalloc.h"

static const char *const role_names[] = { "initiating", "collateral",
    "symptom", "context", "progress" };
static const double role_weights[] = { 3, 1, 1.5, 0.25, 0 };
static const char *const fallout_names[] = { "error", "wait", "teardown" };
static const char *const test_names[] = { "differs", "behind", "outlier",
    "missing", "count" };
static const char *const blame_names[] = { "none", "minority", "lowest",
    "highest", "missing" };
static const char *const categories[] = { "communication", "model", "data",
    "memory", "hardware", "process", "environment", "storage",
    "performance", NULL };
/* a signature's level: which lines a logger marked as what */
static const char *const level_names[] = { "error", "fatal", NULL };
static const char *const severities[] = { "critical", "high", "medium",
    "low", NULL };

const char *
role_name(enum role r)
{
	return r < ROLE__COUNT ? role_names[r] : "?";
}

const char *
cond_test_name(enum cond_test t)
{
	return (size_t)t < sizeof test_names / sizeof *test_names ?
	    test_names[t] : "?";
}

/* --- memory ------------------------------------------------------------- */

void
strlist_free(struct strlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void
signature_release(struct signature *s)
{
	size_t i;

	free(s->id);
	free(s->fullid);
	free(s->pattern);
	free(s->message);
	strlist_free(&s->prefilter);
	strlist_free(&s->requires);
	strlist_free(&s->examples);
	strlist_free(&s->counterexamples);
	pcre2_code_free(s->re);
	free(s->fact_of_group);
	free(s->statfacts);
	for (i = 0; i < ABOUT__COUNT; i++)
		free(s->about_name[i]);
}

static void
condition_release(struct condition *c)
{
	size_t i;

	free(c->id);
	free(c->text);
	strlist_free(&c->from);
	free(c->fromsig);
	for (i = 0; i < c->nwhere; i++) {
		free(c->where[i].fact);
		free(c->where[i].pattern);
		pcre2_code_free(c->where[i].re);
	}
	free(c->where);
	free(c->fact);
	free(c->group_by);
	free(c->group_by2);
}

static void
entry_free(struct entry *e)
{
	size_t i;

	if (e == NULL)
		return;
	free(e->id);
	free(e->file);
	free(e->title);
	free(e->category);
	free(e->severity);
	strlist_free(&e->tags);
	free(e->summary);
	free(e->mechanism);
	strlist_free(&e->observe);
	for (i = 0; i < e->nsymptoms; i++) {
		free(e->symptoms[i].symptom);
		free(e->symptoms[i].why);
		free(e->symptoms[i].signal);
	}
	free(e->symptoms);
	strlist_free(&e->affected);
	strlist_free(&e->root_causes);
	for (i = 0; i < e->nchecklist; i++) {
		free(e->checklist[i].step);
		free(e->checklist[i].signal);
	}
	free(e->checklist);
	strlist_free(&e->fix_steps);
	free(e->fix_verify);
	strlist_free(&e->prevention);
	free(e->fingerprint);
	free(e->scaling);
	strlist_free(&e->related);
	for (i = 0; i < e->nrefs; i++) {
		free(e->refs[i].title);
		free(e->refs[i].url);
	}
	free(e->refs);
	for (i = 0; i < e->nenv; i++) {
		free(e->env[i].name);
		free(e->env[i].shows);
	}
	free(e->env);
	for (i = 0; i < e->nsigs; i++)
		signature_release(&e->sigs[i]);
	free(e->sigs);
	for (i = 0; i < e->nconds; i++)
		condition_release(&e->conds[i]);
	free(e->conds);
	free(e);
}

struct rulebook *
rulebook_new(void)
{
	struct rulebook *rb = xcalloc(1, sizeof(struct rulebook));

	rb->layouts = layouts_new();
	return rb;
}

void
rulebook_free(struct rulebook *rb)
{
	size_t i;

	if (rb == NULL)
		return;
	for (i = 0; i < rb->nentries; i++)
		entry_free(rb->entries[i]);
	free(rb->entries);
	free(rb->sigs);
	free(rb->conds);
	for (i = 0; i < rb->nfacts; i++)
		free(rb->facts[i]);
	free(rb->facts);
	layouts_free(rb->layouts);
	free(rb);
}

int
rulebook_find_fact(const struct rulebook *rb, const char *name)
{
	size_t i;

	for (i = 0; i < rb->nfacts; i++)
		if (strcmp(rb->facts[i], name) == 0)
			return (int)i;
	return -1;
}

int
rulebook_fact(struct rulebook *rb, const char *name, int create)
{
	int id = rulebook_find_fact(rb, name);

	if (id >= 0 || !create)
		return id;
	XGROW(rb->facts, rb->capfacts, rb->nfacts + 1);
	rb->facts[rb->nfacts] = xstrdup(name);
	return (int)rb->nfacts++;
}

/* --- YAML helpers --------------------------------------------------- */

struct ctx {
	const char	*file;
	yaml_document_t	*doc;
	struct notes	*ns;
	struct rulebook	*rb;
	int		 failed;
};

static void err(struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
err(struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	notes_add(c->ns, NOTE_ERROR, c->file, n ? n->start_mark.line + 1 : 0,
	    n ? n->start_mark.column + 1 : 0, "%s", msg);
	c->failed = 1;
}

static yaml_node_t *
node(struct ctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

static char *
scalar(struct ctx *c, yaml_node_t *n, const char *what)
{
	if (n == NULL || n->type != YAML_SCALAR_NODE) {
		err(c, n, "%s must be text", what);
		return NULL;
	}
	return xstrndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

static void
set_scalar(struct ctx *c, yaml_node_t *n, const char *what, char **dst)
{
	char *s = scalar(c, n, what);

	if (s == NULL)
		return;
	free(*dst);
	*dst = s;
}

static void
strlist_of(struct ctx *c, yaml_node_t *n, const char *what, struct strlist *l)
{
	yaml_node_item_t *it;
	char *s;

	strlist_free(l);
	if (n != NULL && n->type == YAML_SCALAR_NODE) {
		l->v = xmalloc(sizeof *l->v);
		l->v[0] = scalar(c, n, what);
		l->n = 1;
		return;
	}
	if (n == NULL || n->type != YAML_SEQUENCE_NODE) {
		err(c, n, "%s must be a list", what);
		return;
	}
	l->v = xcalloc((size_t)(n->data.sequence.items.top - n->data.sequence.items.start) + 1,
	    sizeof *l->v);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
		if ((s = scalar(c, node(c, *it), what)) != NULL)
			l->v[l->n++] = s;
}

static double
number_of(struct ctx *c, yaml_node_t *n, const char *what)
{
	char *s = scalar(c, n, what), *end;
	double v = 0;

	if (s == NULL)
		return 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v)) {
		err(c, n, "%s must be a number, not '%s'", what, s);
		v = 0;
	}
	free(s);
	return v;
}

/* A whole number from lo to hi (a count of ranks, say). */
static int
count_of(struct ctx *c, yaml_node_t *n, const char *what, int lo, int hi)
{
	char *s = scalar(c, n, what), *end;
	double v;

	if (s == NULL)
		return lo;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v) || v != floor(v) || v < lo || v > hi) {
		free(s);
		err(c, n, "%s must be a whole number from %d to %d", what, lo, hi);
		return lo;
	}
	free(s);
	return (int)v;
}

static int
bool_of(struct ctx *c, yaml_node_t *n, const char *what)
{
	char *s = scalar(c, n, what);
	int v = 0;

	if (s == NULL)
		return 0;
	if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0)
		v = 1;
	else if (strcmp(s, "false") != 0 && strcmp(s, "no") != 0)
		err(c, n, "%s must be true or false", what);
	free(s);
	return v;
}

static int
pick(struct ctx *c, yaml_node_t *n, const char *what, const char *const *names,
    size_t count)
{
	char *s = scalar(c, n, what);
	size_t i;

	if (s == NULL)
		return -1;
	for (i = 0; i < count; i++)
		if (strcmp(s, names[i]) == 0) {
			free(s);
			return (int)i;
		}
	err(c, n, "unknown %s '%s'", what, s);
	free(s);
	return -1;
}

static int
in_set(const char *s, const char *const *set)
{
	size_t i;

	for (i = 0; set[i] != NULL; i++)
		if (strcmp(s, set[i]) == 0)
			return 1;
	return 0;
}

static int
valid_id(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return 0;
	return 1;
}

#define FOR_PAIRS(c, n, k, v, name)	FOR_PAIRS_IT(c, n, k, v, name, pp_)
#define FOR_PAIRS_IT(c, n, k, v, name, it)				\
	for (yaml_node_pair_t *it = (n)->data.mapping.pairs.start;	\
	    it < (n)->data.mapping.pairs.top &&				\
	    ((k) = node((c), it->key)) != NULL &&			\
	    ((v) = node((c), it->value)) != NULL &&			\
	    ((name) = (k)->type == YAML_SCALAR_NODE ?			\
	    (const char *)(k)->data.scalar.value : "") != NULL; it++)

static int
is_map(struct ctx *c, yaml_node_t *n, const char *what)
{
	yaml_node_t *dup;

	if (n == NULL || n->type != YAML_MAPPING_NODE) {
		err(c, n, "%s must be a mapping (key: value)", what);
		return 0;
	}
	if ((dup = yamlmap_duplicate(c->doc, n)) != NULL) {
		err(c, dup, "duplicate key '%s' in %s", (const char *)dup->data.scalar.value, what);
		return 0;
	}
	return 1;
}

/* --- signatures and conditions ---------------------------------------- */

static pcre2_code *
compile(struct ctx *c, yaml_node_t *n, const char *pattern, const char *what)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re;

	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &code,
	    &off, NULL);
	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof msg);
		err(c, n, "%s: bad regular expression at offset %zu: %s", what,
		    (size_t)off, (const char *)msg);
	}
	return re;
}

static void
signature_facts(struct ctx *c, struct signature *s)
{
	uint32_t count = 0, size = 0, i;
	PCRE2_SPTR table;

	pcre2_pattern_info(s->re, PCRE2_INFO_CAPTURECOUNT, &s->ngroups);
	s->fact_of_group = xmalloc(sizeof(int) * (s->ngroups + 1));
	for (i = 0; i <= s->ngroups; i++)
		s->fact_of_group[i] = -1;
	pcre2_pattern_info(s->re, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(s->re, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(s->re, PCRE2_INFO_NAMETABLE, &table);
	for (i = 0; i < count; i++) {
		const unsigned char *e = table + i * size;
		unsigned grp = ((unsigned)e[0] << 8) | e[1];

		if (grp <= s->ngroups)
			s->fact_of_group[grp] = rulebook_fact(c->rb,
			    (const char *)e + 2, 1);
	}
}

static const char *const about_names[] = { "rank", "local_rank", "pid", "suspect", "task" };

/* about: {rank: CAPTURE, local_rank: CAPTURE, pid: CAPTURE, suspect: CAPTURE,
 * task: CAPTURE} */
static void
parse_about(struct ctx *c, yaml_node_t *n, struct signature *s)
{
	yaml_node_t *k, *v;
	const char *key;
	int r;

	if (!is_map(c, n, "about"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "record") == 0) {
			static const char *const scopes[] = { "preceding", "following" };

			s->about_following = pick(c, v, "about: record", scopes, 2) == 1;
		} else if ((r = pick(c, k, "a key of about", about_names, ABOUT__COUNT)) >= 0)
			set_scalar(c, v, about_names[r], &s->about_name[r]);
	}
}

/* Each about: capture must be a named group of the pattern. */
static void
resolve_about(struct ctx *c, yaml_node_t *n, struct signature *s)
{
	unsigned g;
	int i;

	for (i = 0; i < ABOUT__COUNT; i++) {
		s->about[i] = -1;
		if (s->about_name[i] == NULL)
			continue;
		s->about[i] = rulebook_find_fact(c->rb, s->about_name[i]);
		for (g = 1; g <= s->ngroups; g++)
			if (s->about[i] >= 0 && s->fact_of_group[g] == s->about[i])
				break;
		if (s->re != NULL && (s->about[i] < 0 || g > s->ngroups))
			err(c, n, "signature '%s': about: %s names '%s', which is not a "
			    "named capture of its pattern", s->id ? s->id : "?",
			    about_names[i], s->about_name[i]);
	}
}

static void
parse_signature(struct ctx *c, struct entry *e, yaml_node_t *n, struct signature *s)
{
	yaml_node_t *k, *v, *pat = NULL, *about = NULL;
	const char *key;
	int r;

	memset(s, 0, sizeof *s);
	s->weight = -1;
	s->role = ROLE__COUNT;
	s->line = n->start_mark.line + 1;
	if (!is_map(c, n, "a signature"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "id") == 0)
			set_scalar(c, v, "id", &s->id);
		else if (strcmp(key, "role") == 0) {
			if ((r = pick(c, v, "role", role_names, ROLE__COUNT)) >= 0)
				s->role = (enum role)r;
		} else if (strcmp(key, "pattern") == 0) {
			set_scalar(c, v, "pattern", &s->pattern);
			pat = v;
		} else if (strcmp(key, "prefilter") == 0)
			strlist_of(c, v, "prefilter", &s->prefilter);
		else if (strcmp(key, "message") == 0)
			set_scalar(c, v, "message", &s->message);
		else if (strcmp(key, "requires") == 0)
			strlist_of(c, v, "requires", &s->requires);
		else if (strcmp(key, "weight") == 0)
			s->weight = number_of(c, v, "weight");
		else if (strcmp(key, "only_at_end") == 0)
			s->only_at_end = bool_of(c, v, "only_at_end");
		else if (strcmp(key, "fallback") == 0)
			s->fallback = bool_of(c, v, "fallback");
		else if (strcmp(key, "last_resort") == 0)
			s->last_resort = bool_of(c, v, "last_resort");
		else if (strcmp(key, "unranked") == 0)
			s->unranked = bool_of(c, v, "unranked");
		else if (strcmp(key, "defines") == 0)
			s->defines = bool_of(c, v, "defines");
		else if (strcmp(key, "generic") == 0)
			s->generic = bool_of(c, v, "generic");
		else if (strcmp(key, "level") == 0) {
			if ((r = pick(c, v, "level", level_names, 2)) >= 0)
				s->level = r == 0 ? 'E' : 'F';
		}
		else if (strcmp(key, "fallout") == 0) {
			int f = pick(c, v, "fallout", fallout_names, 3);

			if (f >= 0) {
				s->fallout = (enum fallout_kind)f;
				s->fallout_own = 1;
			}
		}
		else if (strcmp(key, "examples") == 0)
			strlist_of(c, v, "examples", &s->examples);
		else if (strcmp(key, "counterexamples") == 0)
			strlist_of(c, v, "counterexamples", &s->counterexamples);
		else if (strcmp(key, "about") == 0) {
			parse_about(c, v, s);
			about = v;
		} else
			err(c, k, "unknown key '%s' in a signature", key);
	}
	if (s->id == NULL || !valid_id(s->id))
		err(c, n, "a signature needs an id of [a-z0-9-]");
	if (s->role == ROLE__COUNT)
		err(c, n, "signature '%s' needs a role (%s)", s->id ? s->id : "?",
		    "initiating, collateral, symptom, context or progress");
	if (s->only_at_end && (s->role == ROLE_CONTEXT || s->role == ROLE_PROGRESS))
		err(c, n, "signature '%s': only_at_end is for trouble, not %s lines",
		    s->id ? s->id : "?", role_names[s->role]);
	if (s->last_resort && (s->role != ROLE_INITIATING || s->only_at_end))
		err(c, n, "signature '%s': last_resort is for initiating lines, "
		    "not with only_at_end", s->id ? s->id : "?");
	if (s->defines && s->role != ROLE_COLLATERAL && s->role != ROLE_SYMPTOM)
		err(c, n, "signature '%s': defines is for collateral and symptom lines (an "
		    "initiating line of its entry does as much already)", s->id ? s->id : "?");
	if (s->level != 0 && (s->prefilter.n > 0 || s->requires.n > 0))
		err(c, n, "signature '%s': a level is its prefilter: no prefilter or requires "
		    "with it", s->id ? s->id : "?");
	if (s->unranked && s->role != ROLE_CONTEXT)
		err(c, n, "signature '%s': unranked is for context lines", s->id ? s->id : "?");
	if (s->pattern == NULL)
		err(c, n, "signature '%s' needs a pattern", s->id ? s->id : "?");
	else if ((s->re = compile(c, pat, s->pattern, s->id ? s->id : "pattern")) != NULL)
		signature_facts(c, s);
	resolve_about(c, about != NULL ? about : n, s);
	if (s->weight < 0)
		s->weight = s->role < ROLE__COUNT ? role_weights[s->role] : 0;
	if (s->id != NULL && e->id != NULL)
		s->fullid = xasprintf("%s/%s", e->id, s->id);
	s->entry = e;
}

static void
parse_condition(struct ctx *c, yaml_node_t *n, struct condition *d)
{
	yaml_node_t *k, *v, *kk, *vv;
	const char *key, *key2;
	int r, blame = -1;

	memset(d, 0, sizeof *d);
	d->test = (enum cond_test)-1;
	d->weight = 2;
	d->factor = 1.5;
	d->min_gap = 1;
	d->min_ranks = 2;
	d->fact_id = d->group_id = d->group2_id = -1;
	d->line = n->start_mark.line + 1;
	if (!is_map(c, n, "a condition"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "id") == 0)
			set_scalar(c, v, "id", &d->id);
		else if (strcmp(key, "text") == 0)
			set_scalar(c, v, "text", &d->text);
		else if (strcmp(key, "from") == 0)
			strlist_of(c, v, "from", &d->from);
		else if (strcmp(key, "fact") == 0)
			set_scalar(c, v, "fact", &d->fact);
		else if (strcmp(key, "group_by") == 0) {
			/* one fact, or two: events of a group agree on both */
			struct strlist gl = { NULL, 0 };

			strlist_of(c, v, "group_by", &gl);
			if (gl.n == 1 || gl.n == 2) {
				free(d->group_by);
				free(d->group_by2);
				d->group_by = gl.v[0];
				d->group_by2 = gl.n == 2 ? gl.v[1] : NULL;
				gl.n = 0;
			} else if (gl.n > 2)
				err(c, v, "group_by names one fact or two, not %zu", gl.n);
			strlist_free(&gl);
		}
		else if (strcmp(key, "test") == 0) {
			if ((r = pick(c, v, "test", test_names, 5)) >= 0)
				d->test = (enum cond_test)r;
		} else if (strcmp(key, "blame") == 0)
			blame = pick(c, v, "blame", blame_names, 5);
		else if (strcmp(key, "weight") == 0)
			d->weight = number_of(c, v, "weight");
		else if (strcmp(key, "factor") == 0)
			d->factor = number_of(c, v, "factor");
		else if (strcmp(key, "min_gap") == 0)
			d->min_gap = number_of(c, v, "min_gap");
		else if (strcmp(key, "max_gap") == 0)
			d->max_gap = number_of(c, v, "max_gap");
		else if (strcmp(key, "min_ranks") == 0)
			d->min_ranks = count_of(c, v, "min_ranks", 1, 1 << 20);
		else if (strcmp(key, "required") == 0)
			d->required = bool_of(c, v, "required");
		else if (strcmp(key, "where") == 0) {
			if (!is_map(c, v, "where"))
				continue;
			d->where = xcalloc((size_t)(v->data.mapping.pairs.top -
			    v->data.mapping.pairs.start) + 1, sizeof *d->where);
			FOR_PAIRS_IT(c, v, kk, vv, key2, wp_) {
				struct where *w = &d->where[d->nwhere++];

				w->fact = xstrdup(key2);
				w->fact_id = rulebook_fact(c->rb, key2, 1);
				w->pattern = scalar(c, vv, "a where pattern");
				if (w->pattern != NULL)
					w->re = compile(c, vv, w->pattern, "where");
			}
		} else
			err(c, k, "unknown key '%s' in a condition", key);
	}
	if (d->id == NULL || !valid_id(d->id))
		err(c, n, "a condition needs an id of [a-z0-9-]");
	if (d->text == NULL)
		err(c, n, "condition '%s' needs a text", d->id ? d->id : "?");
	if ((int)d->test < 0)
		err(c, n, "condition '%s' needs a test (%s)", d->id ? d->id : "?",
		    "differs, behind, outlier, missing or count");
	if (d->fact == NULL && d->test != TEST_MISSING && d->test != TEST_COUNT)
		err(c, n, "condition '%s' needs a fact", d->id ? d->id : "?");
	if (d->fact != NULL)
		d->fact_id = rulebook_fact(c->rb, d->fact, 1);
	if (d->group_by != NULL)
		d->group_id = rulebook_fact(c->rb, d->group_by, 1);
	if (d->group_by2 != NULL)
		d->group2_id = rulebook_fact(c->rb, d->group_by2, 1);
	if (d->from.n == 0)
		err(c, n, "condition '%s' needs from: the signatures it reads",
		    d->id ? d->id : "?");
	if (blame >= 0)
		d->blame = (enum blame)blame;
	else
		switch (d->test) {
		case TEST_DIFFERS:
			d->blame = BLAME_MINORITY;
			break;
		case TEST_BEHIND:
			d->blame = BLAME_LOWEST;
			break;
		case TEST_OUTLIER:
			d->blame = BLAME_HIGHEST;
			break;
		case TEST_MISSING:
			d->blame = BLAME_MISSING;
			break;
		default:
			d->blame = BLAME_NONE;
		}
}

/* --- entries ----------------------------------------------------------- */

static void
parse_list_of_maps(struct ctx *c, yaml_node_t *v, const char *what,
    size_t *count, void **arr, size_t elem,
    void (*one)(struct ctx *, yaml_node_t *, void *))
{
	yaml_node_item_t *it;
	size_t n;

	if (v->type != YAML_SEQUENCE_NODE) {
		err(c, v, "%s must be a list", what);
		return;
	}
	n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	*arr = xcalloc(n + 1, elem);
	*count = 0;
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		one(c, node(c, *it), (char *)*arr + *count * elem);
		(*count)++;
	}
}

static void
one_symptom(struct ctx *c, yaml_node_t *n, void *p)
{
	struct symptom *s = p;
	yaml_node_t *k, *v;
	const char *key;

	if (!is_map(c, n, "a symptom"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "symptom") == 0)
			set_scalar(c, v, "symptom", &s->symptom);
		else if (strcmp(key, "why") == 0)
			set_scalar(c, v, "why", &s->why);
		else if (strcmp(key, "signal") == 0)
			set_scalar(c, v, "signal", &s->signal);
		else
			err(c, k, "unknown key '%s' in a symptom", key);
	}
	if (s->symptom == NULL || s->why == NULL)
		err(c, n, "a symptom needs symptom and why");
}

static void
one_step(struct ctx *c, yaml_node_t *n, void *p)
{
	struct step *s = p;
	yaml_node_t *k, *v;
	const char *key;

	if (n != NULL && n->type == YAML_SCALAR_NODE) {
		s->step = scalar(c, n, "step");
		return;
	}
	if (!is_map(c, n, "a checklist step"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "step") == 0)
			set_scalar(c, v, "step", &s->step);
		else if (strcmp(key, "signal") == 0)
			set_scalar(c, v, "signal", &s->signal);
		else
			err(c, k, "unknown key '%s' in a checklist step", key);
	}
	if (s->step == NULL)
		err(c, n, "a checklist item needs step");
}

static void
one_ref(struct ctx *c, yaml_node_t *n, void *p)
{
	struct reference *r = p;
	yaml_node_t *k, *v;
	const char *key;

	if (n != NULL && n->type == YAML_SCALAR_NODE) {
		r->url = scalar(c, n, "reference");
		return;
	}
	if (!is_map(c, n, "a reference"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "title") == 0)
			set_scalar(c, v, "title", &r->title);
		else if (strcmp(key, "url") == 0)
			set_scalar(c, v, "url", &r->url);
		else
			err(c, k, "unknown key '%s' in a reference", key);
	}
	if (r->url == NULL)
		err(c, n, "a reference needs url");
}

static void
one_env(struct ctx *c, yaml_node_t *n, void *p)
{
	struct envvar *ev = p;
	yaml_node_t *k, *v;
	const char *key;

	if (!is_map(c, n, "an env item"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "name") == 0)
			set_scalar(c, v, "name", &ev->name);
		else if (strcmp(key, "shows") == 0)
			set_scalar(c, v, "shows", &ev->shows);
		else
			err(c, k, "unknown key '%s' in an env item", key);
	}
	if (ev->name == NULL || ev->shows == NULL)
		err(c, n, "an env item needs name and shows");
}

static struct entry *sig_entry;

static void
one_signature(struct ctx *c, yaml_node_t *n, void *p)
{
	parse_signature(c, sig_entry, n, p);
}

static void
one_condition(struct ctx *c, yaml_node_t *n, void *p)
{
	parse_condition(c, n, p);
}

static void
parse_fix(struct ctx *c, struct entry *e, yaml_node_t *n)
{
	yaml_node_t *k, *v;
	const char *key;

	if (!is_map(c, n, "fix"))
		return;
	FOR_PAIRS(c, n, k, v, key) {
		if (strcmp(key, "steps") == 0)
			strlist_of(c, v, "fix steps", &e->fix_steps);
		else if (strcmp(key, "verify") == 0)
			set_scalar(c, v, "verify", &e->fix_verify);
		else
			err(c, k, "unknown key '%s' in fix", key);
	}
}

static struct entry *
parse_entry(struct ctx *c, yaml_node_t *root)
{
	struct entry *e = xcalloc(1, sizeof *e);
	yaml_node_t *k, *v, *sigs = NULL, *conds = NULL;
	const char *key;
	size_t i, j;

	if (!is_map(c, root, "an entry"))
		return e;
	/* id first: signatures' full ids need it. */
	FOR_PAIRS(c, root, k, v, key)
		if (strcmp(key, "id") == 0)
			set_scalar(c, v, "id", &e->id);
	FOR_PAIRS(c, root, k, v, key) {
		if (strcmp(key, "id") == 0)
			;
		else if (strcmp(key, "title") == 0)
			set_scalar(c, v, "title", &e->title);
		else if (strcmp(key, "category") == 0) {
			set_scalar(c, v, "category", &e->category);
			if (e->category && !in_set(e->category, categories))
				err(c, v, "unknown category '%s'", e->category);
		} else if (strcmp(key, "severity") == 0) {
			set_scalar(c, v, "severity", &e->severity);
			if (e->severity && !in_set(e->severity, severities))
				err(c, v, "unknown severity '%s' (critical, high, medium, low)",
				    e->severity);
		} else if (strcmp(key, "tags") == 0)
			strlist_of(c, v, "tags", &e->tags);
		else if (strcmp(key, "summary") == 0)
			set_scalar(c, v, "summary", &e->summary);
		else if (strcmp(key, "mechanism") == 0)
			set_scalar(c, v, "mechanism", &e->mechanism);
		else if (strcmp(key, "observe") == 0)
			strlist_of(c, v, "observe", &e->observe);
		else if (strcmp(key, "symptoms") == 0)
			parse_list_of_maps(c, v, "symptoms", &e->nsymptoms,
			    (void **)&e->symptoms, sizeof *e->symptoms, one_symptom);
		else if (strcmp(key, "affected") == 0)
			strlist_of(c, v, "affected", &e->affected);
		else if (strcmp(key, "root_causes") == 0)
			strlist_of(c, v, "root_causes", &e->root_causes);
		else if (strcmp(key, "checklist") == 0)
			parse_list_of_maps(c, v, "checklist", &e->nchecklist,
			    (void **)&e->checklist, sizeof *e->checklist, one_step);
		else if (strcmp(key, "fix") == 0)
			parse_fix(c, e, v);
		else if (strcmp(key, "prevention") == 0)
			strlist_of(c, v, "prevention", &e->prevention);
		else if (strcmp(key, "fingerprint") == 0)
			set_scalar(c, v, "fingerprint", &e->fingerprint);
		else if (strcmp(key, "scaling") == 0)
			set_scalar(c, v, "scaling", &e->scaling);
		else if (strcmp(key, "related") == 0)
			strlist_of(c, v, "related", &e->related);
		else if (strcmp(key, "references") == 0)
			parse_list_of_maps(c, v, "references", &e->nrefs,
			    (void **)&e->refs, sizeof *e->refs, one_ref);
		else if (strcmp(key, "env") == 0)
			parse_list_of_maps(c, v, "env", &e->nenv,
			    (void **)&e->env, sizeof *e->env, one_env);
		else if (strcmp(key, "signatures") == 0)
			sigs = v;
		else if (strcmp(key, "conditions") == 0)
			conds = v;
		else
			err(c, k, "unknown key '%s'", key);
	}
	if (e->id == NULL || !valid_id(e->id))
		err(c, root, "the entry needs an id of [a-z0-9-]");
	if (e->title == NULL)
		err(c, root, "the entry needs a title");
	if (e->category == NULL)
		err(c, root, "the entry needs a category");
	if (e->severity == NULL)
		err(c, root, "the entry needs a severity");
	if (e->summary == NULL)
		err(c, root, "the entry needs a summary");
	if (sigs != NULL) {
		sig_entry = e;
		parse_list_of_maps(c, sigs, "signatures", &e->nsigs,
		    (void **)&e->sigs, sizeof *e->sigs, one_signature);
	}
	if (conds != NULL) {
		parse_list_of_maps(c, conds, "conditions", &e->nconds,
		    (void **)&e->conds, sizeof *e->conds, one_condition);
		for (i = 0; i < e->nconds; i++)
			e->conds[i].entry = e;
	}
	for (i = 0; i < e->nsigs; i++)
		for (j = i + 1; j < e->nsigs; j++)
			if (e->sigs[i].id && e->sigs[j].id &&
			    strcmp(e->sigs[i].id, e->sigs[j].id) == 0)
				err(c, sigs, "two signatures are called '%s'", e->sigs[i].id);
	return e;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;

	return strcmp(x->id, y->id);
}

static int
parse_rules(void *arg, const char *path, const char *text, size_t len, struct notes *ns)
{
	return rulebook_parse(arg, path, text, len, ns);
}

int
rulebook_load_file(struct rulebook *rb, const char *path, struct notes *ns)
{
	return yamlmap_read(path, RULE_FILE_MAX, ns, NOTE_ERROR, "", 0, parse_rules, rb);
}

int
rulebook_parse(struct rulebook *rb, const char *path, const char *text, size_t len,
    struct notes *ns)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct ctx c = { path, &doc, ns, rb, 0 };
	struct entry *e;
	yaml_node_t *root;
	size_t i;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		notes_add(ns, NOTE_ERROR, path, parser.problem_mark.line + 1,
		    parser.problem_mark.column + 1, "YAML syntax: %s%s%s",
		    parser.problem ? parser.problem : "error",
		    parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (root == NULL) {
		notes_add(ns, NOTE_ERROR, path, 0, 0, "empty rule file");
		yaml_document_delete(&doc);
		yaml_parser_delete(&parser);
		return -1;
	}
	e = parse_entry(&c, root);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (c.failed) {
		entry_free(e);
		return -1;
	}
	e->file = xstrdup(path);
	for (i = 0; i < rb->nentries; i++)
		if (strcmp(rb->entries[i]->id, e->id) == 0) {
			entry_free(rb->entries[i]);
			rb->entries[i] = e;
			return 0;
		}
	XGROW(rb->entries, rb->capentries, rb->nentries + 1);
	rb->entries[rb->nentries++] = e;
	qsort(rb->entries, rb->nentries, sizeof *rb->entries, entry_cmp);
	return 0;
}

struct loadctx {
	struct rulebook	*rb;
	struct notes	*ns;
};

static int
load_one(void *arg, const char *path)
{
	struct loadctx *c = arg;

	return rulebook_load_file(c->rb, path, c->ns);
}

int
rulebook_load_dir(struct rulebook *rb, const char *dir, struct notes *ns)
{
	struct loadctx c = { rb, ns };
	int failed = yamlmap_each(dir, load_one, &c);
	char *p;

	if (failed < 0) {
		notes_add(ns, NOTE_ERROR, dir, 0, 0, "cannot read rules folder: %s",
		    strerror(errno));
		return 1;
	}
	p = xasprintf("%s/layouts", dir);
	failed += layouts_load_dir(rb->layouts, p, ns);
	free(p);
	return failed;
}

struct entry *
rulebook_entry(const struct rulebook *rb, const char *id)
{
	size_t i;

	for (i = 0; i < rb->nentries; i++)
		if (strcmp(rb->entries[i]->id, id) == 0)
			return rb->entries[i];
	return NULL;
}

/* What the entry's collateral lines say, by its tags (doc/rules.md). */
static enum fallout_kind
fallout_of(const struct entry *e)
{
	enum fallout_kind k = FALLOUT_ERROR;
	size_t i;

	for (i = 0; i < e->tags.n; i++)
		if (strcmp(e->tags.v[i], "hang") == 0 || strcmp(e->tags.v[i], "timeout") == 0)
			return FALLOUT_WAIT;
		else if (strcmp(e->tags.v[i], "teardown") == 0)
			k = FALLOUT_TEARDOWN;
	return k;
}

struct signature *
rulebook_signature(const struct rulebook *rb, const struct entry *from,
    const char *id)
{
	const char *slash = strchr(id, '/');
	const struct entry *e = from;
	size_t i;

	if (slash != NULL) {
		char *eid = xstrndup(id, (size_t)(slash - id));

		e = rulebook_entry(rb, eid);
		free(eid);
		id = slash + 1;
	}
	if (e == NULL)
		return NULL;
	for (i = 0; i < e->nsigs; i++)
		if (strcmp(e->sigs[i].id, id) == 0)
			return &e->sigs[i];
	return NULL;
}

struct condition *
rulebook_condition(const struct entry *e, const char *id)
{
	size_t i;

	for (i = 0; i < e->nconds; i++)
		if (strcmp(e->conds[i].id, id) == 0)
			return &e->conds[i];
	return NULL;
}

/* Signature s has its numeric fact id counted per rank (numstats). */
static void
statfact_add(struct signature *s, int id)
{
	unsigned i;

	for (i = 0; i < s->nstatfacts; i++)
		if (s->statfacts[i] == id)
			return;
	s->statfacts = xrealloc(s->statfacts, (s->nstatfacts + 1) * sizeof *s->statfacts);
	s->statfacts[s->nstatfacts++] = id;
}


int
rulebook_finish(struct rulebook *rb, struct notes *ns)
{
	size_t i, j, k, nsig = 0, ncond = 0;
	int problems = 0;

	free(rb->sigs);
	free(rb->conds);
	for (i = 0; i < rb->nentries; i++) {
		nsig += rb->entries[i]->nsigs;
		ncond += rb->entries[i]->nconds;
	}
	rb->sigs = xcalloc(nsig + 1, sizeof *rb->sigs);
	rb->conds = xcalloc(ncond + 1, sizeof *rb->conds);
	rb->nsigs = rb->nconds = 0;
	for (i = 0; i < rb->nentries; i++) {
		struct entry *e = rb->entries[i];

		e->fallout = fallout_of(e);
		for (j = 0; j < e->nsigs; j++) {
			if (!e->sigs[j].fallout_own)
				e->sigs[j].fallout = e->fallout;
			e->sigs[j].index = rb->nsigs;
			rb->sigs[rb->nsigs++] = &e->sigs[j];
		}
		for (j = 0; j < e->nconds; j++) {
			struct condition *d = &e->conds[j];

			d->index = rb->nconds;
			rb->conds[rb->nconds++] = d;
			free(d->fromsig);
			d->fromsig = xcalloc(d->from.n + 1, sizeof *d->fromsig);
			d->nfromsig = 0;
			for (k = 0; k < d->from.n; k++) {
				struct signature *s = rulebook_signature(rb, e, d->from.v[k]);

				if (s == NULL) {
					notes_add(ns, NOTE_ERROR, e->file, d->line, 0,
					    "condition '%s': no signature '%s'", d->id,
					    d->from.v[k]);
					problems++;
				} else {
					d->fromsig[d->nfromsig++] = s;
					if (d->test == TEST_OUTLIER && d->nwhere == 0 &&
					    d->group_id < 0 && d->fact_id >= 0)
						statfact_add(s, d->fact_id);
				}
			}
		}
		for (j = 0; j < e->nsymptoms + e->nchecklist; j++) {
			const char *sig = j < e->nsymptoms ? e->symptoms[j].signal :
			    e->checklist[j - e->nsymptoms].signal;

			if (sig != NULL && rulebook_signature(rb, e, sig) == NULL &&
			    rulebook_condition(e, sig) == NULL) {
				notes_add(ns, NOTE_ERROR, e->file, 0, 0,
				    "signal '%s' names no signature or condition", sig);
				problems++;
			}
		}
		for (j = 0; j < e->related.n; j++)
			if (rulebook_entry(rb, e->related.v[j]) == NULL)
				notes_add(ns, NOTE_INFO, e->file, 0, 0,
				    "related entry '%s' is not in the rulebook",
				    e->related.v[j]);
	}
	return problems;
}
