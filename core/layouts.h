/* layouts.h: the data of rules/layouts/ (core/envelope.h reads lines
 * with it): how a pod's name gives its rank, and where each log store
 * keeps a record's message, time, pod, node and container. Loaded from
 * YAML files, each checked whole: a file with an unknown key or a bad
 * pattern is refused, named with its line. Read-only once loaded, so the
 * reading threads share it. */
#ifndef RW_LAYOUTS_H
#define RW_LAYOUTS_H

#include <stddef.h>

#include "notes.h"
#include "rulebook.h"	/* PCRE2 with its code unit width */

/* Where a JSON record keeps what we want, each a list of field paths
 * ("kubernetes.pod.name": nested objects or dotted keys), first found
 * wins; inside: objects to look in first (an Elasticsearch hit's
 * _source); lists: arrays of records in a whole document. */
enum field {
	F_MESSAGE,
	F_TIME,
	F_POD,
	F_NODE,
	F_CONTAINER,
	F_INSIDE,
	F_LISTS,
	F__COUNT
};

struct podrule {
	char		*id;
	pcre2_code	*re;
	char		**roles;	/* "add": per role, a number added to the index */
	int		*adds;
	size_t		 nroles;
};

/* A pod, node or container named inside another field (journald's
 * CONTAINER_NAME k8s_<container>_<pod>_..., CloudWatch's stream name). */
struct derive {
	char		*from;
	pcre2_code	*re;
};

struct layouts {
	struct podrule	*pods;
	size_t		 npods;
	char		**fields[F__COUNT];
	size_t		 nfields[F__COUNT];
	struct derive	*derives;
	size_t		 nderives;
};

struct layouts	*layouts_new(void);
void		 layouts_free(struct layouts *l);
/* Load one layouts file (YAML); 0, or -1 with a note naming file and line.
 * A later file's pod rules come first; one with the id of an earlier rule
 * replaces it. */
int		 layouts_parse(struct layouts *l, const char *path, const char *text,
		    size_t len, struct notes *ns);
/* Load every *.yaml of dir, sorted; a missing dir is no error. Returns the
 * number of files that failed. */
int		 layouts_load_dir(struct layouts *l, const char *dir, struct notes *ns);
size_t		 layouts_pod_rules(const struct layouts *l);

#endif
