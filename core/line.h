/* line.h: one log line, its rank and its time.
 * line_parse peels what launchers and loggers put in front of a message
 * (srun labels, mpirun tags, Ray tags, Determined's [rank=N] ||,
 * torchrun [defaultN]:, PyTorch
 * [rankN]:, the c10 / glog / Python / DeepSpeed / NCCL headers) and
 * decides the line's global rank and timestamp. It keeps per-file state in
 * a linestate: multi-line records, the torchrun failure summary, the year
 * anchor and the inherited time. It never allocates. */
#ifndef RW_LINE_H
#define RW_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "stamp.h"

/* Where a line's rank came from, weakest first. */
enum rank_from {
	RANK_NONE,	/* unattributed */
	RANK_GROUP,	/* a process-group rank named in the message */
	RANK_FILE,	/* the file's name or place in a layout */
	RANK_INHERIT,	/* continues a record opened by a ranked line */
	RANK_LOCAL,	/* torchrun [defaultN]: local rank */
	RANK_SUMMARY,	/* the torchrun failure summary names it */
	RANK_NAMED,	/* the message names it (srun task N), or its GPU's bus id */
	RANK_POD,	/* the pod's name (kubectl --prefix, a log store's labels) */
	RANK_LABEL,	/* srun --label, mpirun --tag-output */
	RANK_PREFIX,	/* PyTorch [rankN]: */
};

#define LINE_CONTINUATION	0x01	/* continues a multi-line record */
#define LINE_GLUED		0x02	/* found glued after other text (\r, tqdm) */
#define LINE_ROOT_CAUSE		0x04	/* in torchrun's "Root Cause" section */
#define LINE_SUMMARY		0x08	/* part of a torchrun failure summary */
#define LINE_BLANK		0x10
#define LINE_IGNORED		0x20	/* in a traceback Python printed as
					 * ignored ("Exception ignored in: ..."):
					 * its exception did not end the process */
/* (the line's only: an event keeps the flags below it) */
#define LINE_CRASH_DUMP		0x40	/* in the stack dump Python's faulthandler
					 * prints at a fatal error ("Fatal Python
					 * error: Segmentation fault", "Thread
					 * 0x... (most recent call first):", its
					 * frames): where the process crashed */
#define LINE_CHAINED		0x80	/* in the traceback Python prints after
					 * "The above exception was the direct
					 * cause of the following exception:" (or
					 * "During handling of the above exception
					 * ..."): the exception above it goes on */

struct line {
	const char	*raw;
	size_t		 rawlen;
	const char	*msg;		/* inside raw */
	size_t		 msglen;
	int		 rank;		/* global rank, -1 when unknown */
	enum rank_from	 rank_from;
	int		 local_rank;	/* -1 */
	char		 sev;		/* 'F' 'E' 'W' 'I' 'V', or 0 */
	unsigned	 flags;
	struct stamp	 ts;
	const char	*host;		/* inside raw, or NULL */
	size_t		 hostlen;
	long		 pid;		/* the printing process (NCCL host:pid:tid, Ray pid=), -1 */
	int		 label;		/* srun --label / mpirun tag: task or node, -1 */
	int		 node;		/* node index the layout gives the file, -1 */
	unsigned long	 lineno;
	uint64_t	 offset;
	size_t		 splice;	/* another rank's record starts here (a
					 * [rankN]: spliced into this line's
					 * message): rawlen ends before it; 0 */
};

#define LINE_HOSTS	4

struct linestate {
	/* (the ints in even runs between the 64-bit fields, so that there is
	 * no 4-byte hole: a console keeps one for each file it follows) */
	int		 file_rank;	/* rank the layout gives the file, -1 */
	int		 node;		/* node index from the layout, -1 */
	int		 nproc;		/* processes per node when known, 0 */
	int		 anchor_dated;
	int64_t		 anchor;	/* year anchor: last dated stamp, or mtime */
	struct stamp	 last;		/* for lines without a time */
	int		 record_rank;	/* rank of the open multi-line record */
	enum rank_from	 record_from;
	int		 sum_state;	/* torchrun summary: 0 none, 1 in block */
	int		 sum_root;	/* in its Root Cause section */
	int		 sum_rank;	/* rank of the current [idx]: entry */
	int		 max_local;	/* highest torchrun local rank seen */
	uint32_t	 hosts[LINE_HOSTS];	/* plain "host: " prefixes seen
					 * before a log line (hashes, newest first) */
	struct stamp	 sum_time;
	unsigned long	 group_ranked;	/* lines ranked only by a group rank */
	int		 ignoring;	/* in an "Exception ignored" record */
	int		 ignored_rank;	/* its rank, -1 */
	unsigned char	 cr_free;	/* set by the reader: the lines it hands
					 * over now hold no '\r' */
	unsigned char	 label_node;	/* a line's [rankN]: differs from its
					 * launcher label: labels are tasks
					 * running several ranks, not ranks */
	unsigned char	 crash_dump;	/* in a LINE_CRASH_DUMP record */
	unsigned char	 chained;	/* in a LINE_CHAINED record, */
	int		 chained_rank;	/* ... of this rank, -1 */
	int		 tee_offset;	/* global - local rank of "[defaultL]:[rankG]:"
					 * lines, + 1; 0 none seen, -1 several */
	/* What an envelope (core/envelope.h) said of the line, set by the
	 * reader before it is parsed: the pod's number, taken as an srun
	 * label is (the rank, or with [defaultN]: the node); the pod's node
	 * or name as its host; its time, which wins over the line's own (one
	 * clock for every pod). -1, NULL, flags 0: none. pod_label: the same
	 * for every line of the source (a --cmd naming one pod). */
	int		 env_label;
	int		 pod_label;
	const char	*env_host;
	size_t		 env_hostlen;
	struct stamp	 env_ts;
};

/* mtime: the file's mtime as a stamp sec (local), 0 when unknown. */
void	linestate_init(struct linestate *st, int file_rank, int node,
	    int64_t mtime);
/* Parse raw[0..len) (no newline). out->lineno/offset are left alone. */
void	line_parse(struct linestate *st, const char *raw, size_t len,
	    struct line *out);

const char *rank_from_name(enum rank_from f);

#endif
