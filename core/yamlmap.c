/* yamlmap.c: reading YAML files: whole, a folder of them, duplicate keys. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"
#include "yamlmap.h"

int
yamlmap_load(yaml_document_t *doc, const char *path, const char *text, size_t len,
    struct notes *ns, enum note_level level, const char *then)
{
	yaml_parser_t parser;
	int ok;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!(ok = yaml_parser_load(&parser, doc)))
		notes_add(ns, level, path, parser.problem_mark.line + 1,
		    parser.problem_mark.column + 1, "YAML syntax: %s%s",
		    parser.problem ? parser.problem : "error", then);
	yaml_parser_delete(&parser);
	return ok ? 0 : -1;
}

static int
yaml_name(const struct dirent *d)
{
	size_t l = strlen(d->d_name);

	return d->d_name[0] != '.' && ((l > 5 && strcmp(d->d_name + l - 5, ".yaml") == 0) ||
	    (l > 4 && strcmp(d->d_name + l - 4, ".yml") == 0));
}

int
yamlmap_each(const char *dir, int (*fn)(void *arg, const char *path), void *arg)
{
	struct dirent **ents;
	int n, i, failed = 0;

	if ((n = scandir(dir, &ents, yaml_name, alphasort)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, ents[i]->d_name);

		if (fn(arg, p) != 0)
			failed++;
		free(p);
		free(ents[i]);
	}
	free(ents);
	return failed;
}

int
yamlmap_read(const char *path, size_t limit, struct notes *ns, enum note_level level,
    const char *then, int missing_ok,
    int (*parse)(void *arg, const char *path, const char *text, size_t len, struct notes *ns),
    void *arg)
{
	struct buf b = BUF_INIT;
	int rc;

	if (buf_slurp(&b, path, limit) != 0) {
		int e = errno;

		buf_release(&b);
		if (e == ENOENT && missing_ok)
			return 0;
		if (e == EFBIG)
			notes_add(ns, level, path, 0, 0, "cannot read: larger than %zu KiB%s",
			    limit / 1024, then);
		else
			notes_add(ns, level, path, 0, 0, "cannot read: %s%s", strerror(e), then);
		return -1;
	}
	rc = parse(arg, path, b.s, b.len, ns);
	buf_release(&b);
	return rc;
}

yaml_node_t *
yamlmap_duplicate(yaml_document_t *d, const yaml_node_t *n)
{
	const yaml_node_pair_t *a, *b;

	if (n == NULL || n->type != YAML_MAPPING_NODE)
		return NULL;
	/* mappings here have a handful of keys: pairs are compared directly */
	for (a = n->data.mapping.pairs.start + 1; a < n->data.mapping.pairs.top; a++) {
		yaml_node_t *ka = yaml_document_get_node(d, a->key);

		if (ka == NULL || ka->type != YAML_SCALAR_NODE)
			continue;
		for (b = n->data.mapping.pairs.start; b < a; b++) {
			yaml_node_t *kb = yaml_document_get_node(d, b->key);

			if (kb != NULL && kb->type == YAML_SCALAR_NODE &&
			    kb->data.scalar.length == ka->data.scalar.length &&
			    memcmp(kb->data.scalar.value, ka->data.scalar.value,
			    ka->data.scalar.length) == 0)
				return ka;
		}
	}
	return NULL;
}
