/* yamlmap.h: the one rule every YAML mapping rankwatch reads follows.
 * A key given twice in one mapping is an error, named with the file,
 * line and column of its second occurrence, in rule files, themes and the
 * config alike: which of the two a reader kept would otherwise be a guess
 * (and a leak or an overflow, as fuzzing found). */
#ifndef RW_YAMLMAP_H
#define RW_YAMLMAP_H

#include <yaml.h>

/* A settings or theme file is read whole, up to this size: a larger one
 * (a log or /dev/zero named by mistake) is refused, not read forever. */
#define YAMLMAP_FILE_MAX	(1 << 20)

/* The key node of the first key that repeats an earlier one in mapping n,
 * or NULL. Scalar keys are compared by value. */
yaml_node_t	*yamlmap_duplicate(yaml_document_t *d, const yaml_node_t *n);

#endif
