/* envelope.h: what Kubernetes and the log stores wrap around a log line,
 * taken off before the line is parsed (core/line.h), with what it says:
 * the pod (and so the rank), the node, the time.
 *   kubectl logs --prefix [--timestamps]  [pod/<pod>/<container>] [<RFC3339>] line
 *   stern                                 <pod> <container> [<RFC3339>] line
 *   CRI log files (/var/log/pods)         <RFC3339> stdout|stderr P|F line
 *   JSON records, one per line            Loki (logcli --output=jsonl),
 *     Elasticsearch/OpenSearch hits and _source, journalctl -o json,
 *     CloudWatch events, Docker json-file, Fluent Bit, stern -o json
 *   <RFC3339> [<stream>] {JSON record}    CloudWatch's S3 export, aws logs tail
 *   whole JSON documents                  an Elasticsearch _search response,
 *     aws logs filter-log-events: their records (envelope_document)
 * Where a record keeps its message, time, pod, node and container, and
 * how a pod's name gives its rank (the operators' naming: PyTorchJob's
 * worker-N is RANK N+1 beside master-0), is data: the YAML files of
 * rules/layouts/, loaded by core/layouts.h.
 * Reading one line allocates nothing but its JSON. */
#ifndef RW_ENVELOPE_H
#define RW_ENVELOPE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "notes.h"
#include "stamp.h"

struct layouts;

#define ENVELOPE_NAME_MAX	128
/* A source whose first lines had no envelope is not looked at for the
 * ones a line's head cannot tell (stern's, CRI's, a time before a record)
 * after this many: a log of its own does not turn into one. */
#define ENVELOPE_TRIES		16

enum envelope_kind {
	ENV_NONE,
	ENV_KUBECTL,
	ENV_STERN,
	ENV_CRI,
	ENV_JSON,
};

struct envelope {
	enum envelope_kind kind;
	const char	*text;		/* the line inside: in the raw line, or in the scratch */
	size_t		 len;
	int		 decoded;	/* text is not the raw line's bytes (JSON) */
	char		 pod[ENVELOPE_NAME_MAX];	/* "" when it does not say */
	char		 node[ENVELOPE_NAME_MAX];
	char		 container[ENVELOPE_NAME_MAX];
	int		 index;		/* the pod's rank (or node rank) by its name, -1 */
	struct stamp	 ts;		/* flags 0: no time */
};

/* Per source: what its lines turned out to be, and the last pod's rank. */
struct envstate {
	uint8_t		 seen;		/* enum envelope_kind: what the source's lines have */
	uint8_t		 noted;		/* its order was said */
	uint16_t	 tries;		/* lines looked at before one had an envelope */
	int32_t		 lastindex;
	char		*lastpod;	/* the last pod asked about, and its index */
	int64_t		 lastns;	/* the time of the previous record (ns) */
	uint32_t	 forward, backward;	/* records later / earlier than the one before */
	void		*md;		/* PCRE2 match data of its own */
};

/* Records that come newest first (logcli without --forward): 1 once. */
int		 envstate_backwards(struct envstate *es);

void		 envstate_init(struct envstate *es);
void		 envstate_release(struct envstate *es);

/* The rank (or node rank) a pod's name gives, by the first pod rule that
 * matches it; -1 when none does. */
int		 envelope_pod_index(const struct layouts *l, struct envstate *es,
		    const char *pod, size_t n);

/* Whether envelope_take may find one on raw[0..len): a source that has
 * shown none in its first ENVELOPE_TRIES lines is only looked at again
 * for a JSON record, a json-seq or SSE one, or a kubectl prefix. */
static inline int
envelope_may_take(const struct envstate *es, const char *raw, size_t len)
{
	return len > 0 && (es->seen != ENV_NONE || es->tries < ENVELOPE_TRIES ||
	    raw[0] == '{' || raw[0] == 0x1e || raw[0] == 'd' ||
	    (raw[0] == '[' && len > 5 && raw[1] == 'p'));
}

/* Take the envelope off raw[0..len): 1 with *out filled (its text may
 * live in scratch, which it empties first), 0 when the line has none. A
 * JSON line that is not a record of a known shape is no envelope. */
int		 envelope_take(const struct layouts *l, struct envstate *es,
		    const char *raw, size_t len, struct envelope *out, struct buf *scratch);

/* A whole JSON document (text[0..len), the file's whole content) of one
 * of the known shapes: each record, oldest first, handed to fn with its
 * envelope; returns the number of records, or -1 with *why set (the
 * parser's line and column in it). 0: not a document of records. */
long		 envelope_document(const struct layouts *l, struct envstate *es,
		    const char *text, size_t len,
		    void (*fn)(void *arg, const struct envelope *env), void *arg,
		    char **why, unsigned long *line);

/* Does text[0..n) (a file's first bytes) open a JSON document that spans
 * lines, rather than one JSON record per line? */
int		 envelope_is_document(const char *text, size_t n);

#endif
