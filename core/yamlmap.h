/* yamlmap.h: the one rule every YAML mapping rankwatch reads follows.
 * A key given twice in one mapping is an error, named with the file,
 * line and column of its second occurrence, in rule files, themes and the
 * config alike: which of the two a reader kept would otherwise be a guess
 * (and a leak or an overflow, as fuzzing found). */
#ifndef RW_YAMLMAP_H
#define RW_YAMLMAP_H

#include <stddef.h>
#include <yaml.h>

#include "notes.h"

/* A settings or theme file is read whole, up to this size: a larger one
 * (a log or /dev/zero named by mistake) is refused, not read forever. */
#define YAMLMAP_FILE_MAX	(1 << 20)

/* Read the YAML file at path whole into b, and hand its text to parse
 * (with arg); at most limit bytes. A file that cannot be read is a note
 * at level naming it and why (then: what that means, or ""), and -1; a
 * missing one is 0 with no note when missing_ok (the user's optional
 * settings), else the same. parse's result is returned. */
int		 yamlmap_read(const char *path, size_t limit, struct notes *ns,
		    enum note_level level, const char *then, int missing_ok,
		    int (*parse)(void *arg, const char *path, const char *text, size_t len,
		    struct notes *ns), void *arg);

/* Load text[0..len) (read from path) as one YAML document into doc: 0, or
 * -1 with a note at level naming path, line and column ("YAML syntax:
 * ...", then the words of then). doc is the caller's to delete. */
int		 yamlmap_load(yaml_document_t *doc, const char *path, const char *text,
		    size_t len, struct notes *ns, enum note_level level, const char *then);

/* Call fn with the path of each *.yaml and *.yml file of dir (not
 * hidden ones), in name order. Returns how many calls returned nonzero,
 * or -1 (errno set) when dir cannot be read. */
int		 yamlmap_each(const char *dir, int (*fn)(void *arg, const char *path),
		    void *arg);

/* The key node of the first key that repeats an earlier one in mapping n,
 * or NULL. Scalar keys are compared by value. */
yaml_node_t	*yamlmap_duplicate(yaml_document_t *d, const yaml_node_t *n);

#endif
