/* config_file.c: the user's settings file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "config_file.h"
#include "buf.h"
#include "yamlmap.h"
#include "xmalloc.h"

void
config_release(struct config *c)
{
	size_t i;

	free(c->path);
	free(c->theme);
	for (i = 0; i < c->rules.n; i++)
		free(c->rules.v[i]);
	free(c->rules.v);
	memset(c, 0, sizeof *c);
}

static int
parse_config(void *arg, const char *path, const char *text, size_t len, struct notes *ns)
{
	struct config *c = arg;

	free(c->path);	/* config_parse starts afresh */
	return config_parse(c, path, text, len, ns);
}

int
config_read(struct config *c, const char *path, struct notes *ns)
{
	memset(c, 0, sizeof *c);
	c->path = xstrdup(path);	/* what config_parse sets, when it runs */
	return yamlmap_read(path, YAMLMAP_FILE_MAX, ns, NOTE_WARN, "; settings ignored", 1,
	    parse_config, c);
}

int
config_parse(struct config *c, const char *path, const char *text, size_t len,
    struct notes *ns)
{
	yaml_document_t d;
	yaml_node_t *root, *dup;
	yaml_node_pair_t *pp;
	int bad = 0;

	memset(c, 0, sizeof *c);
	c->path = xstrdup(path);
	if (yamlmap_load(&d, path, text, len, ns, NOTE_WARN, "; settings ignored") != 0)
		return -1;
	root = yaml_document_get_root_node(&d);
	if ((dup = yamlmap_duplicate(&d, root)) != NULL) {
		notes_add(ns, NOTE_ERROR, path, dup->start_mark.line + 1, dup->start_mark.column + 1,
		    "duplicate setting '%s'; settings ignored", (const char *)dup->data.scalar.value);
		root = NULL;
		bad = 1;
	}
	if (root != NULL && root->type == YAML_MAPPING_NODE)
		for (pp = root->data.mapping.pairs.start; pp < root->data.mapping.pairs.top; pp++) {
			yaml_node_t *k = yaml_document_get_node(&d, pp->key);
			yaml_node_t *v = yaml_document_get_node(&d, pp->value);
			const char *key = k->type == YAML_SCALAR_NODE ? (char *)k->data.scalar.value : "";

			if (strcmp(key, "theme") == 0 && v->type == YAML_SCALAR_NODE)
				c->theme = xstrdup((char *)v->data.scalar.value);
			else if (strcmp(key, "rules") == 0) {
				yaml_node_item_t *it;

				strlist_free(&c->rules);
				if (v->type == YAML_SCALAR_NODE) {
					c->rules.v = xmalloc(sizeof *c->rules.v);
					c->rules.v[c->rules.n++] = xstrdup((char *)v->data.scalar.value);
				} else if (v->type == YAML_SEQUENCE_NODE) {
					c->rules.v = xcalloc((size_t)(v->data.sequence.items.top -
					    v->data.sequence.items.start) + 1, sizeof *c->rules.v);
					for (it = v->data.sequence.items.start;
					    it < v->data.sequence.items.top; it++) {
						yaml_node_t *s = yaml_document_get_node(&d, *it);

						if (s->type == YAML_SCALAR_NODE)
							c->rules.v[c->rules.n++] =
							    xstrdup((char *)s->data.scalar.value);
					}
				}
			} else {
				notes_add(ns, NOTE_WARN, path, k->start_mark.line + 1,
				    k->start_mark.column + 1, "unknown setting '%s' (theme, rules)", key);
				bad = 1;
			}
		}
	yaml_document_delete(&d);
	return bad ? -1 : 0;
}

void
config_load(struct config *c, struct notes *ns)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;

	if (x != NULL && *x == '/')
		path = xasprintf("%s/rankwatch/config.yaml", x);
	else
		path = xasprintf("%s/.config/rankwatch/config.yaml", home ? home : "/");
	config_read(c, path, ns);
	free(path);
}
