/* layouts.c: loading rules/layouts/: pod rules, the stores' field paths,
 * the fields that name a pod inside another. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "layouts.h"
#include "xmalloc.h"
#include "yamlmap.h"

#define MARK(n)	(unsigned long)(n)->start_mark.line + 1, (unsigned long)(n)->start_mark.column + 1

static const char *const field_names[F__COUNT] = {
	"message", "time", "pod", "node", "container", "inside", "lists",
};

struct layouts *
layouts_new(void)
{
	/* jansson seeds its hash tables once, before threads read JSON */
	json_object_seed(0);
	return xcalloc(1, sizeof(struct layouts));
}

static void
podrule_release(struct podrule *r)
{
	size_t i;

	free(r->id);
	pcre2_code_free(r->re);
	for (i = 0; i < r->nroles; i++)
		free(r->roles[i]);
	free(r->roles);
	free(r->adds);
}

void
layouts_free(struct layouts *l)
{
	size_t i, f;

	if (l == NULL)
		return;
	for (i = 0; i < l->npods; i++)
		podrule_release(&l->pods[i]);
	free(l->pods);
	for (f = 0; f < F__COUNT; f++) {
		for (i = 0; i < l->nfields[f]; i++)
			free(l->fields[f][i]);
		free(l->fields[f]);
	}
	for (i = 0; i < l->nderives; i++) {
		free(l->derives[i].from);
		pcre2_code_free(l->derives[i].re);
	}
	free(l->derives);
	free(l);
}

size_t
layouts_pod_rules(const struct layouts *l)
{
	return l != NULL ? l->npods : 0;
}

/* --- loading ------------------------------------------------------------- */

static const char *
sval(const yaml_node_t *n)
{
	return n != NULL && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static pcre2_code *
compile(const char *pat, const char *path, const yaml_node_t *at, struct notes *ns)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &code, &off,
	    NULL);

	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof msg);
		notes_add(ns, NOTE_ERROR, path, MARK(at), "pattern: %s at offset %zu", msg,
		    (size_t)off);
		return NULL;
	}
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

static int
has_group(const pcre2_code *re, const char *name)
{
	return pcre2_substring_number_from_name(re, (PCRE2_SPTR)name) > 0;
}

static int
parse_pod(struct layouts *l, yaml_document_t *d, yaml_node_t *n, const char *path,
    struct notes *ns, struct podrule *out)
{
	yaml_node_pair_t *p;
	yaml_node_t *dup;
	const char *match = NULL;
	yaml_node_t *match_at = n;

	(void)l;
	memset(out, 0, sizeof *out);
	if (n->type != YAML_MAPPING_NODE) {
		notes_add(ns, NOTE_ERROR, path, MARK(n), "a pod rule is a mapping (id, match, add)");
		return -1;
	}
	if ((dup = yamlmap_duplicate(d, n)) != NULL) {
		notes_add(ns, NOTE_ERROR, path, MARK(dup), "duplicate key '%s'", sval(dup));
		return -1;
	}
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		yaml_node_t *v = yaml_document_get_node(d, p->value);
		const char *key = sval(k);

		if (key != NULL && strcmp(key, "id") == 0 && sval(v) != NULL)
			out->id = xstrdup(sval(v));
		else if (key != NULL && (strcmp(key, "about") == 0 || strcmp(key, "source") == 0) &&
		    sval(v) != NULL)
			continue;
		else if (key != NULL && strcmp(key, "match") == 0 && sval(v) != NULL) {
			match = sval(v);
			match_at = v;
		} else if (key != NULL && strcmp(key, "add") == 0 && v->type == YAML_MAPPING_NODE) {
			yaml_node_pair_t *q;

			if ((dup = yamlmap_duplicate(d, v)) != NULL) {
				notes_add(ns, NOTE_ERROR, path, MARK(dup), "duplicate key '%s'",
				    sval(dup));
				return -1;
			}
			for (q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				yaml_node_t *rk = yaml_document_get_node(d, q->key);
				yaml_node_t *rv = yaml_document_get_node(d, q->value);
				char *end;
				long a = sval(rv) ? strtol(sval(rv), &end, 10) : 0;

				if (sval(rk) == NULL || sval(rv) == NULL || *end != '\0' || a < 0 ||
				    a > 1 << 20) {
					notes_add(ns, NOTE_ERROR, path, MARK(rv),
					    "add: a role and a whole number (worker: 1)");
					return -1;
				}
				out->roles = xrealloc(out->roles, (out->nroles + 1) * sizeof *out->roles);
				out->adds = xrealloc(out->adds, (out->nroles + 1) * sizeof *out->adds);
				out->roles[out->nroles] = xstrdup(sval(rk));
				out->adds[out->nroles++] = (int)a;
			}
		} else {
			notes_add(ns, NOTE_ERROR, path, MARK(k), "unknown key '%s' in a pod rule "
			    "(id, about, source, match, add)", key ? key : "");
			return -1;
		}
	}
	if (out->id == NULL || match == NULL) {
		notes_add(ns, NOTE_ERROR, path, MARK(n), "a pod rule needs an id and a match");
		return -1;
	}
	if ((out->re = compile(match, path, match_at, ns)) == NULL)
		return -1;
	if (!has_group(out->re, "index") || (out->nroles > 0 && !has_group(out->re, "role"))) {
		notes_add(ns, NOTE_ERROR, path, MARK(match_at), "a pod rule's match names the "
		    "pod's number (?<index>...)%s", out->nroles > 0 ? " and, with add, its "
		    "(?<role>...)" : "");
		return -1;
	}
	return 0;
}

static int
parse_strings(yaml_document_t *d, yaml_node_t *n, const char *path, struct notes *ns,
    char ***v, size_t *nv)
{
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE) {
		notes_add(ns, NOTE_ERROR, path, MARK(n), "a list of field names");
		return -1;
	}
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *s = yaml_document_get_node(d, *it);

		if (sval(s) == NULL || *sval(s) == '\0') {
			notes_add(ns, NOTE_ERROR, path, MARK(s), "a field name");
			return -1;
		}
		*v = xrealloc(*v, (*nv + 1) * sizeof **v);
		(*v)[(*nv)++] = xstrdup(sval(s));
	}
	return 0;
}

static int
parse_derive(yaml_document_t *d, yaml_node_t *n, const char *path, struct notes *ns,
    struct derive *out)
{
	yaml_node_pair_t *p;
	yaml_node_t *at = n;
	const char *match = NULL;

	memset(out, 0, sizeof *out);
	if (n->type != YAML_MAPPING_NODE || yamlmap_duplicate(d, n) != NULL) {
		notes_add(ns, NOTE_ERROR, path, MARK(n), "a derive rule is a mapping (from, match)");
		return -1;
	}
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		yaml_node_t *v = yaml_document_get_node(d, p->value);
		const char *key = sval(k);

		if (key != NULL && strcmp(key, "from") == 0 && sval(v) != NULL)
			out->from = xstrdup(sval(v));
		else if (key != NULL && strcmp(key, "match") == 0 && sval(v) != NULL) {
			match = sval(v);
			at = v;
		} else if (key == NULL || strcmp(key, "about") != 0) {
			notes_add(ns, NOTE_ERROR, path, MARK(k), "unknown key '%s' in a derive rule "
			    "(from, match, about)", key ? key : "");
			return -1;
		}
	}
	if (out->from == NULL || match == NULL) {
		notes_add(ns, NOTE_ERROR, path, MARK(n), "a derive rule needs from and match");
		return -1;
	}
	if ((out->re = compile(match, path, at, ns)) == NULL)
		return -1;
	if (!has_group(out->re, "pod") && !has_group(out->re, "node") &&
	    !has_group(out->re, "container")) {
		notes_add(ns, NOTE_ERROR, path, MARK(at), "a derive rule's match names a "
		    "(?<pod>...), (?<node>...) or (?<container>...)");
		return -1;
	}
	return 0;
}

int
layouts_parse(struct layouts *l, const char *path, const char *text, size_t len,
    struct notes *ns)
{
	yaml_document_t doc;
	yaml_node_t *root, *dup;
	yaml_node_pair_t *p;
	struct podrule *pods = NULL;
	size_t npods = 0, i, j;
	int bad = 0;

	if (yamlmap_load(&doc, path, text, len, ns, NOTE_ERROR, "") != 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	if (root == NULL || root->type != YAML_MAPPING_NODE) {
		notes_add(ns, NOTE_ERROR, path, 0, 0, "a layouts file is a mapping of pods, "
		    "records and derive");
		bad = 1;
	} else if ((dup = yamlmap_duplicate(&doc, root)) != NULL) {
		notes_add(ns, NOTE_ERROR, path, MARK(dup), "duplicate key '%s'", sval(dup));
		bad = 1;
	}
	for (p = bad ? NULL : root->data.mapping.pairs.start;
	    p != NULL && p < root->data.mapping.pairs.top && !bad; p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);
		const char *key = sval(k);
		yaml_node_item_t *it;

		if (key != NULL && strcmp(key, "pods") == 0 && v->type == YAML_SEQUENCE_NODE) {
			for (it = v->data.sequence.items.start; it < v->data.sequence.items.top &&
			    !bad; it++) {
				pods = xrealloc(pods, (npods + 1) * sizeof *pods);
				if (parse_pod(l, &doc, yaml_document_get_node(&doc, *it), path, ns,
				    &pods[npods]) != 0) {
					podrule_release(&pods[npods]);
					bad = 1;
				} else
					npods++;
			}
		} else if (key != NULL && strcmp(key, "records") == 0 &&
		    v->type == YAML_MAPPING_NODE) {
			yaml_node_pair_t *q;

			if ((dup = yamlmap_duplicate(&doc, v)) != NULL) {
				notes_add(ns, NOTE_ERROR, path, MARK(dup), "duplicate key '%s'",
				    sval(dup));
				bad = 1;
			}
			for (q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top && !bad;
			    q++) {
				yaml_node_t *fk = yaml_document_get_node(&doc, q->key);
				int f;

				for (f = 0; f < F__COUNT; f++)
					if (sval(fk) != NULL && strcmp(sval(fk), field_names[f]) == 0)
						break;
				if (f == F__COUNT) {
					notes_add(ns, NOTE_ERROR, path, MARK(fk), "unknown key '%s' in "
					    "records (message, time, pod, node, container, inside, lists)",
					    sval(fk) ? sval(fk) : "");
					bad = 1;
				} else if (parse_strings(&doc, yaml_document_get_node(&doc, q->value),
				    path, ns, &l->fields[f], &l->nfields[f]) != 0)
					bad = 1;
			}
		} else if (key != NULL && strcmp(key, "derive") == 0 &&
		    v->type == YAML_SEQUENCE_NODE) {
			for (it = v->data.sequence.items.start; it < v->data.sequence.items.top &&
			    !bad; it++) {
				struct derive dv;

				if (parse_derive(&doc, yaml_document_get_node(&doc, *it), path, ns,
				    &dv) != 0) {
					free(dv.from);
					pcre2_code_free(dv.re);
					bad = 1;
					break;
				}
				l->derives = xrealloc(l->derives, (l->nderives + 1) * sizeof *l->derives);
				l->derives[l->nderives++] = dv;
			}
		} else {
			notes_add(ns, NOTE_ERROR, path, MARK(k), "unknown key '%s' in a layouts file "
			    "(pods: a list, records: a mapping, derive: a list)", key ? key : "");
			bad = 1;
		}
	}
	yaml_document_delete(&doc);
	if (bad) {
		for (i = 0; i < npods; i++)
			podrule_release(&pods[i]);
		free(pods);
		return -1;
	}
	/* A later file's rules come first (the user's before the shipped
	 * ones); one with the id of an earlier rule replaces it. */
	for (i = 0; i < npods; i++)
		for (j = 0; j < l->npods; j++)
			if (strcmp(l->pods[j].id, pods[i].id) == 0) {
				podrule_release(&l->pods[j]);
				memmove(l->pods + j, l->pods + j + 1, (l->npods - j - 1) * sizeof *l->pods);
				l->npods--;
				break;
			}
	l->pods = xrealloc(l->pods, (l->npods + npods + 1) * sizeof *l->pods);
	memmove(l->pods + npods, l->pods, l->npods * sizeof *l->pods);
	if (npods > 0)
		memcpy(l->pods, pods, npods * sizeof *pods);
	l->npods += npods;
	free(pods);
	return 0;
}

struct loadctx {
	struct layouts	*l;
	struct notes	*ns;
};

static int
parse_cb(void *arg, const char *path, const char *text, size_t len, struct notes *ns)
{
	return layouts_parse(arg, path, text, len, ns);
}

static int
load_one(void *arg, const char *path)
{
	struct loadctx *c = arg;

	return yamlmap_read(path, YAMLMAP_FILE_MAX, c->ns, NOTE_ERROR, "", 0, parse_cb, c->l);
}

int
layouts_load_dir(struct layouts *l, const char *dir, struct notes *ns)
{
	struct loadctx c = { l, ns };
	int failed = yamlmap_each(dir, load_one, &c);

	return failed < 0 ? 0 : failed;	/* a rules folder without layouts */
}

