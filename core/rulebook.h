/* rulebook.h: the failure encyclopedia, loaded from YAML entry files.
 * An entry is text for people (summary, symptoms, checklist, fix...) plus
 * signatures (PCRE2 patterns with a role) and cross-rank conditions for
 * the engine. The format is described in doc/rules.md. Loading a file is
 * all or nothing: an invalid file adds a note with file, line and column
 * and leaves the rulebook as it was. */
#ifndef RW_RULEBOOK_H
#define RW_RULEBOOK_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

#include "notes.h"

enum role {
	ROLE_INITIATING,
	ROLE_COLLATERAL,
	ROLE_SYMPTOM,
	ROLE_CONTEXT,
	ROLE_PROGRESS,
	ROLE__COUNT
};

enum cond_test {
	TEST_DIFFERS,
	TEST_BEHIND,
	TEST_OUTLIER,
	TEST_MISSING,
	TEST_COUNT,
};

enum blame {
	BLAME_NONE,
	BLAME_MINORITY,
	BLAME_LOWEST,
	BLAME_HIGHEST,
	BLAME_MISSING,
};

enum about {
	ABOUT_RANK,
	ABOUT_LOCAL_RANK,
	ABOUT_PID,
	ABOUT_SUSPECT,
	ABOUT_TASK,	/* a launcher's task: a rank only with no agent per node */
	ABOUT__COUNT
};

struct strlist {
	char	**v;
	size_t	  n;
};

/* Free the strings and the array; the list is empty after. */
void	strlist_free(struct strlist *l);

struct entry;

/* What collateral lines say: a rank waited, the launcher ended it
 * (teardown), or it failed of an error that began elsewhere. An entry's
 * kind comes from its tags (hang or timeout: wait; teardown), at
 * rulebook_finish; a signature's is its entry's unless it says. */
enum fallout_kind {
	FALLOUT_ERROR,
	FALLOUT_WAIT,
	FALLOUT_TEARDOWN,
};

struct signature {
	char		*id;		/* unique in its entry */
	char		*fullid;	/* "entry/id" */
	struct entry	*entry;
	enum role	 role;
	char		*pattern;
	char		*message;	/* the message in words, for overviews */
	double		 weight;
	struct strlist	 prefilter;	/* literals given in the file */
	struct strlist	 requires;	/* one of these must be in the line too (any case) */
	struct strlist	 examples;
	struct strlist	 counterexamples;
	unsigned long	 line;		/* where it is defined */
	pcre2_code	*re;
	int		*fact_of_group;	/* capture group -> fact id, -1 */
	/* about: which captures say whom the event is about (fact ids, -1):
	 * its global rank, its local rank on its node, its pid; and a rank it
	 * points at without being about it (a suspect). */
	char		*about_name[ABOUT__COUNT];
	int		 about[ABOUT__COUNT];
	int		 about_following;	/* the rank is also the following lines' */
	/* only_at_end: the line opens a record that counts only when its
	 * rank's output ends inside it (core/scan.c: a traceback cut before
	 * its exception line); anything else of that rank drops it */
	int		 only_at_end;
	/* fallback: matches a line only when no other signature does (a
	 * catch-all for what more telling signatures leave: core/matcher.c) */
	int		 fallback;
	/* last_resort: an initiating line that says a process died, not
	 * why (a launcher's "exitcode -6"): it counts only when the run has
	 * no other failure and no rank timed out before it (core/order.c) */
	int		 last_resort;
	/* generic: a catch-all of its role (a bare Python exception): on a
	 * line another entry's signature of the same role also reads ("
	 * RuntimeError: Gloo connectFullMesh failed ..."), that one speaks
	 * for the line, whatever the weights (core/diagnose.c, order.c) */
	int		 generic;
	/* defines: a line that says, by itself, that its entry happened (an
	 * analyzer's finding): the entry needs no required condition once it
	 * matched, as with an initiating line of its own (core/diagnose.c) */
	int		 defines;
	/* unranked: a context line that matters only on a line with no rank
	 * of its own (it names the rank of the process printing it): not
	 * run on a ranked line (matcher_match) */
	int		 unranked;
	/* level: 'E' runs on lines a logger marked error or fatal, 'F'
	 * fatal only, by the level tag line_parse read (line.h's sev), not
	 * by the prefilter's literals; 0: any line (core/matcher.c) */
	char		 level;
	/* fallout: what its line says as fallout (its entry's kind, or its
	 * own when fallout_own: "Waiting in store based barrier" is a wait
	 * in an entry of errors) */
	enum fallout_kind fallout;
	int		 fallout_own;
	unsigned	 ngroups;
	size_t		 index;		/* in rulebook->sigs */
	/* the numeric facts whose running statistics a condition reads
	 * (an outlier over each rank's mean): only these are counted */
	int		*statfacts;
	unsigned	 nstatfacts;
};

/* A catch-all by level (level and fallback): a line its logger marked as
 * an error that no other signature reads. */
#define signature_is_lone(s)	((s)->level != 0 && (s)->fallback)

/* Of two signatures of one role reading the same line, does a speak for
 * it over b? The one that is not generic, else the weightier. */
static inline int
signature_outweighs(const struct signature *a, const struct signature *b)
{
	if (a->generic != b->generic)
		return b->generic;
	return a->weight > b->weight;
}

struct where {
	char		*fact;
	char		*pattern;
	int		 fact_id;
	pcre2_code	*re;
};

struct condition {
	char		*id;
	char		*text;
	struct entry	*entry;
	struct strlist	 from;
	struct signature **fromsig;	/* resolved */
	size_t		 nfromsig;
	struct where	*where;
	size_t		 nwhere;
	char		*fact;
	int		 fact_id;
	char		*group_by;
	int		 group_id;	/* -1 */
	char		*group_by2;	/* a second fact of the group (group_by: [seq, op]) */
	int		 group2_id;	/* -1 */
	enum cond_test	 test;
	enum blame	 blame;
	double		 weight;
	double		 factor;
	double		 min_gap;
	double		 max_gap;	/* behind, differs: wider apart is no one sequence (0: none) */
	int		 min_ranks;
	int		 required;
	unsigned long	 line;
	size_t		 index;		/* in rulebook->conds */
};

struct symptom {
	char	*symptom;
	char	*why;
	char	*signal;	/* signature or condition id, or NULL */
};

struct step {
	char	*step;
	char	*signal;
};

struct reference {
	char	*title;
	char	*url;
};

/* An environment variable that makes this failure visible or tells it
 * apart from its look-alikes. */
struct envvar {
	char	*name;		/* "NCCL_DEBUG=INFO" */
	char	*shows;		/* what it adds to the logs */
};

struct entry {
	char		*id;
	char		*file;
	char		*title;
	char		*category;
	char		*severity;
	struct strlist	 tags;
	char		*summary;
	char		*mechanism;
	struct strlist	 observe;
	struct symptom	*symptoms;
	size_t		 nsymptoms;
	struct strlist	 affected;
	struct strlist	 root_causes;
	struct step	*checklist;
	size_t		 nchecklist;
	struct strlist	 fix_steps;
	char		*fix_verify;
	struct strlist	 prevention;
	char		*fingerprint;
	char		*scaling;
	struct strlist	 related;
	struct reference *refs;
	size_t		 nrefs;
	struct envvar	*env;
	size_t		 nenv;
	struct signature *sigs;
	size_t		 nsigs;
	struct condition *conds;
	size_t		 nconds;
	enum fallout_kind fallout;	/* derived from tags */
};

struct rulebook {
	struct entry	**entries;	/* sorted by id */
	size_t		  nentries, capentries;
	struct signature **sigs;	/* every signature, after rulebook_finish */
	size_t		  nsigs;
	struct condition **conds;
	size_t		  nconds;
	char		**facts;	/* interned fact names */
	size_t		  nfacts, capfacts;
	/* what Kubernetes and the log stores wrap around lines: each rules
	 * folder's layouts/ (core/envelope.h) */
	struct layouts	 *layouts;
};

struct rulebook	*rulebook_new(void);
void		 rulebook_free(struct rulebook *rb);
/* Load one entry file; replaces an entry of the same id. 0 or -1. */
int		 rulebook_load_file(struct rulebook *rb, const char *path,
		     struct notes *ns);
/* The same from text[0..len), read from path (named in notes and kept as
 * the entry's file). */
int		 rulebook_parse(struct rulebook *rb, const char *path, const char *text,
		    size_t len, struct notes *ns);
/* A rule file is read whole, up to this size. */
#define RULE_FILE_MAX	(4 << 20)
/* Load every *.yaml / *.yml in dir (sorted), and those of dir/layouts.
 * Returns files that failed. */
int		 rulebook_load_dir(struct rulebook *rb, const char *dir,
		     struct notes *ns);
/* Resolve cross references (conditions' from, signals) and index all
 * signatures and conditions. Call once after loading. Returns problems. */
int		 rulebook_finish(struct rulebook *rb, struct notes *ns);

struct entry	*rulebook_entry(const struct rulebook *rb, const char *id);
struct signature *rulebook_signature(const struct rulebook *rb,
		     const struct entry *from, const char *id);
struct condition *rulebook_condition(const struct entry *e, const char *id);
/* Fact id for a name (interned); -1 when unknown and !create. */
int		 rulebook_fact(struct rulebook *rb, const char *name, int create);
int		 rulebook_find_fact(const struct rulebook *rb, const char *name);

const char	*role_name(enum role r);
const char	*cond_test_name(enum cond_test t);

#endif
