/* theme.c: read theme YAML into role styles. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "theme.h"
#include "buf.h"
#include "yamlmap.h"
#include "xmalloc.h"

static const char *const role_names[] = {
#define X(e, s) s,
	THEME_ROLES(X)
#undef X
};

const char *
theme_role_name(enum theme_role r)
{
	return r < TR__COUNT ? role_names[r] : "?";
}

int
theme_color(const char *name)
{
	static const char *const basic[] = { "black", "red", "green", "yellow",
	    "blue", "magenta", "cyan", "white" };
	char *end;
	long v;
	int i;

	if (strcmp(name, "default") == 0)
		return -1;
	for (i = 0; i < 8; i++) {
		if (strcmp(name, basic[i]) == 0)
			return i;
		if (strncmp(name, "bright-", 7) == 0 && strcmp(name + 7, basic[i]) == 0)
			return i + 8;
	}
	v = strtol(name, &end, 10);
	if (end != name && *end == '\0' && v >= 0 && v <= 255)
		return (int)v;
	return -2;
}

static unsigned
attr_of(const char *s)
{
	if (strcmp(s, "bold") == 0)
		return THEME_BOLD;
	if (strcmp(s, "underline") == 0)
		return THEME_UNDERLINE;
	if (strcmp(s, "reverse") == 0)
		return THEME_REVERSE;
	if (strcmp(s, "dim") == 0)
		return THEME_DIM;
	if (strcmp(s, "italic") == 0)
		return THEME_ITALIC;
	return 0;
}

#define MARK(n) (unsigned long)(n)->start_mark.line + 1, (unsigned long)(n)->start_mark.column + 1

static const char *
sval(yaml_node_t *n)
{
	return n != NULL && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int
parse_style(yaml_document_t *d, yaml_node_t *n, struct theme_style *st,
    const char *file, struct notes *ns)
{
	yaml_node_pair_t *p;
	yaml_node_t *dup;

	if (n->type != YAML_MAPPING_NODE) {
		notes_add(ns, NOTE_ERROR, file, MARK(n), "a role needs {fg, bg, attrs}");
		return -1;
	}
	if ((dup = yamlmap_duplicate(d, n)) != NULL) {
		notes_add(ns, NOTE_ERROR, file, MARK(dup), "duplicate key '%s'",
		    (const char *)dup->data.scalar.value);
		return -1;
	}
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		yaml_node_t *v = yaml_document_get_node(d, p->value);
		const char *key = sval(k), *val = sval(v);

		if (key == NULL)
			continue;
		if (strcmp(key, "fg") == 0 || strcmp(key, "bg") == 0) {
			int c = val ? theme_color(val) : -2;

			if (c == -2) {
				notes_add(ns, NOTE_ERROR, file, MARK(v),
				    "unknown colour '%s' (black red green yellow blue magenta cyan white, bright-*, default, 0-255)",
				    val ? val : "");
				return -1;
			}
			if (key[0] == 'f')
				st->fg = (short)c;
			else
				st->bg = (short)c;
		} else if (strcmp(key, "attrs") == 0) {
			yaml_node_item_t *it;

			if (v->type == YAML_SCALAR_NODE) {
				if ((st->attrs |= attr_of(val)) == 0 && *val) {
					notes_add(ns, NOTE_ERROR, file, MARK(v), "unknown attribute '%s'", val);
					return -1;
				}
				continue;
			}
			if (v->type != YAML_SEQUENCE_NODE)
				continue;
			for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
				const char *a = sval(yaml_document_get_node(d, *it));
				unsigned bit = a ? attr_of(a) : 0;

				if (bit == 0) {
					notes_add(ns, NOTE_ERROR, file, MARK(v),
					    "unknown attribute '%s' (bold underline reverse dim italic)",
					    a ? a : "");
					return -1;
				}
				st->attrs |= bit;
			}
		} else {
			notes_add(ns, NOTE_ERROR, file, MARK(k), "unknown key '%s' in a style", key);
			return -1;
		}
	}
	st->set = 1;
	return 0;
}

/* The roles: mapping of a theme's root, or NULL. */
static yaml_node_t *
theme_roles_node(yaml_document_t *d, yaml_node_t *root)
{
	yaml_node_pair_t *p;

	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		yaml_node_t *v = yaml_document_get_node(d, p->value);

		if (sval(k) != NULL && strcmp(sval(k), "roles") == 0 && v != NULL &&
		    v->type == YAML_MAPPING_NODE)
			return v;
	}
	return NULL;
}

static int
parse_theme(void *arg, const char *path, const char *text, size_t len, struct notes *ns)
{
	struct theme **t = arg;

	*t = theme_parse(path, text, len, ns);
	return *t != NULL ? 0 : -1;
}

struct theme *
theme_load(const char *path, struct notes *ns)
{
	struct theme *t = NULL;

	(void)yamlmap_read(path, YAMLMAP_FILE_MAX, ns, NOTE_ERROR, "", 0, parse_theme, &t);
	return t;
}

struct theme *
theme_parse(const char *path, const char *text, size_t len, struct notes *ns)
{
	yaml_document_t doc;
	yaml_node_t *root, *dup = NULL, *roles;
	yaml_node_pair_t *p;
	struct theme *t;
	int bad = 0, r;

	if (yamlmap_load(&doc, path, text, len, ns, NOTE_ERROR, "") != 0)
		return NULL;
	t = xcalloc(1, sizeof *t);
	for (r = 0; r < TR__COUNT; r++)
		t->style[r].fg = t->style[r].bg = -1;
	root = yaml_document_get_root_node(&doc);
	if (root == NULL || root->type != YAML_MAPPING_NODE) {
		notes_add(ns, NOTE_ERROR, path, 0, 0, "a theme is a mapping with name and roles");
		bad = 1;
	} else if ((dup = yamlmap_duplicate(&doc, root)) != NULL ||
	    ((roles = theme_roles_node(&doc, root)) != NULL &&
	    (dup = yamlmap_duplicate(&doc, roles)) != NULL)) {
		notes_add(ns, NOTE_ERROR, path, MARK(dup), "duplicate key '%s'",
		    (const char *)dup->data.scalar.value);
		bad = 1;
	} else
		for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top && !bad; p++) {
			yaml_node_t *k = yaml_document_get_node(&doc, p->key);
			yaml_node_t *v = yaml_document_get_node(&doc, p->value);
			const char *key = sval(k);
			yaml_node_pair_t *q;

			if (key != NULL && strcmp(key, "name") == 0 && sval(v) != NULL)
				t->name = xstrdup(sval(v));
			else if (key != NULL && strcmp(key, "roles") == 0 &&
			    v->type == YAML_MAPPING_NODE)
				for (q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
					yaml_node_t *rk = yaml_document_get_node(&doc, q->key);
					const char *rn = sval(rk);

					for (r = 0; r < TR__COUNT; r++)
						if (rn != NULL && strcmp(rn, role_names[r]) == 0)
							break;
					if (r == TR__COUNT) {
						notes_add(ns, NOTE_ERROR, path, MARK(rk),
						    "unknown role '%s'", rn ? rn : "");
						bad = 1;
						break;
					}
					if (parse_style(&doc, yaml_document_get_node(&doc, q->value),
					    &t->style[r], path, ns) != 0) {
						bad = 1;
						break;
					}
				}
			else {
				notes_add(ns, NOTE_ERROR, path, MARK(k), "unknown key '%s' in a theme",
				    key ? key : "");
				bad = 1;
			}
		}
	yaml_document_delete(&doc);
	if (!bad && t->name == NULL) {
		notes_add(ns, NOTE_ERROR, path, 0, 0, "a theme needs a name");
		bad = 1;
	}
	if (bad) {
		theme_free(t);
		return NULL;
	}
	for (r = 1; r < TR__COUNT; r++)
		if (!t->style[r].set)
			t->style[r] = t->style[TR_NORMAL];
	t->file = xstrdup(path);
	return t;
}

void
theme_free(struct theme *t)
{
	if (t == NULL)
		return;
	free(t->name);
	free(t->file);
	free(t);
}

struct theme *
theme_mono(void)
{
	struct theme *t = xcalloc(1, sizeof *t);
	int r;

	t->name = xstrdup("mono");
	for (r = 0; r < TR__COUNT; r++)
		t->style[r].fg = t->style[r].bg = -1;
	t->style[TR_HEADER].attrs = THEME_REVERSE;
	t->style[TR_STATUS].attrs = THEME_REVERSE;
	t->style[TR_SELECTION].attrs = THEME_REVERSE;
	t->style[TR_TITLE].attrs = THEME_BOLD;
	t->style[TR_FAILURE].attrs = THEME_BOLD | THEME_REVERSE;
	t->style[TR_HANG].attrs = THEME_BOLD | THEME_REVERSE;
	t->style[TR_INITIATING].attrs = THEME_BOLD | THEME_REVERSE;
	t->style[TR_SUSPECT].attrs = THEME_BOLD | THEME_UNDERLINE;
	t->style[TR_COLLATERAL].attrs = 0;
	t->style[TR_SILENT].attrs = THEME_DIM;
	t->style[TR_DIM].attrs = THEME_DIM;
	t->style[TR_CRITICAL].attrs = THEME_BOLD;
	t->style[TR_HIGH].attrs = THEME_BOLD;
	t->style[TR_SEEN].attrs = THEME_BOLD;
	t->style[TR_SEARCH].attrs = THEME_REVERSE;
	t->style[TR_LINK].attrs = THEME_UNDERLINE;
	t->style[TR_ESCAPED].attrs = THEME_DIM;
	return t;
}

static int
theme_cmp(const void *a, const void *b)
{
	const struct theme *x = *(struct theme *const *)a, *y = *(struct theme *const *)b;

	return strcmp(x->name, y->name);
}

struct loadctx {
	struct theme_set *ts;
	struct notes	*ns;
};

/* A theme file: a theme of the same name loaded before is replaced. */
static int
load_one(void *arg, const char *path)
{
	struct loadctx *c = arg;
	struct theme_set *ts = c->ts;
	struct theme *th = theme_load(path, c->ns);
	size_t i;

	if (th == NULL)
		return -1;
	for (i = 1; i < ts->n; i++)
		if (strcmp(ts->v[i]->name, th->name) == 0) {
			theme_free(ts->v[i]);
			ts->v[i] = th;
			return 0;
		}
	XGROW(ts->v, ts->cap, ts->n + 1);
	ts->v[ts->n++] = th;
	return 0;
}

void
theme_set_load(struct theme_set *ts, char *const *dirs, size_t ndirs, struct notes *ns)
{
	struct loadctx c = { ts, ns };
	size_t d;

	memset(ts, 0, sizeof *ts);
	XGROW(ts->v, ts->cap, 1);
	ts->v[ts->n++] = theme_mono();
	for (d = 0; d < ndirs; d++)
		(void)yamlmap_each(dirs[d], load_one, &c);
	if (ts->n > 2)
		qsort(ts->v + 1, ts->n - 1, sizeof *ts->v, theme_cmp);
}

void
theme_set_release(struct theme_set *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		theme_free(ts->v[i]);
	free(ts->v);
	memset(ts, 0, sizeof *ts);
}
