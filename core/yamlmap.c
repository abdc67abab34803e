/* yamlmap.c: duplicate keys in a YAML mapping. */
#include "config.h"

#include <string.h>

#include "yamlmap.h"

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
