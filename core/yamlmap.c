/* yamlmap.c: duplicate keys in a YAML mapping. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "buf.h"
#include "yamlmap.h"

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
