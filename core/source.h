/* source.h: one log file, read incrementally.
 * A source remembers how far it has read (offset), which file it read
 * (device and inode) and the partial last line; it holds no file open
 * between reads and never keeps the log's text, so thousands of files cost
 * a few hundred bytes each. Rotation (new inode) and truncation
 * (copytruncate) restart it from the top, with a note. */
#ifndef RW_SOURCE_H
#define RW_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"
#include "envelope.h"
#include "event.h"
#include "line.h"
#include "notes.h"

struct source;
struct wrap;
struct cuts;

#define SOURCE_LINE_MAX	(64 * 1024)	/* longer lines are matched on their head */
#define SOURCE_CHUNK	(64 * 1024)
#define SOURCE_HEAD	64	/* first bytes compared to notice a rewrite */
#define SOURCE_NOT_REGULAR	(-1)	/* a source's failed: a FIFO, a device */
#define SOURCE_CMD_FAILED	(-2)	/* ... a command that exited non-zero or was killed */

enum source_kind {
	SOURCE_LOG,
	SOURCE_ERRORJSON,	/* torchrun error.json: one synthetic line */
	SOURCE_STDIN,
	SOURCE_CMD,		/* the output of a command rankwatch runs (core/stream.h) */
};

enum {
	DOC_NO,		/* lines */
	DOC_READING,	/* a JSON document, being kept */
	DOC_DONE,	/* read; what follows is not looked at */
};

/* Standard input and commands: read from a pipe, not opened by path. */
#define SOURCE_IS_STREAM(s)	((s)->kind == SOURCE_STDIN || (s)->kind == SOURCE_CMD)

/* What reading a source needs from one read to the next, and nothing
 * after its last: a run read once (run_options.once, a report) lets it go
 * as each file is read to its end (source_retire), so that what stays of
 * 100,000 files is their names and counts (not even how far each was
 * read: offset and lineno are here); a followed run puts it to
 * sleep between passes (source_sleep). */
struct srcread {
	struct linestate ls;
	char		*carry;		/* partial last line */
	size_t		 carrylen, carrycap;
	struct wrap	*wrap;		/* the scanner's kept half-record (core/scan.c) */
	struct cuts	*cuts;		/* the scanner's records held to the end (core/scan.c) */
	struct envstate	 env;		/* what wraps its lines (core/envelope.h) */
	/* a whole JSON document (an Elasticsearch response, an aws logs
	 * export) is kept until it is complete, then read record by record
	 * (document, doc_noted: below, with the other bytes) */
	struct buf	*doc;
	uint64_t	 offset;	/* bytes consumed, complete lines only */
	unsigned long	 lineno;	/* lines consumed */
	int		*kept_ranks;	/* ranks whose first failure-like line was kept */
	size_t		 nkept, capkept;
	char		**hosts;	/* host names its lines gave */
	size_t		 nhosts;
	int		 trouble_seen;	/* a line of it matched trouble (core/scan.c) */
	/* set by the reader's caller: called with each chunk read into buf
	 * before its lines are handed on, with the line function's arg */
	void		(*chunk_fn)(void *arg, struct source *src, const char *p,
			    size_t n);
	dev_t		 dev;		/* the file read (0, 0: none yet) */
	ino_t		 ino;
	dev_t		 prev_dev;	/* the file it was before a rotation, */
	ino_t		 prev_ino;	/* and how far that was read */
	uint64_t	 prev_offset;
	int64_t		 mtime_ns;	/* st_mtim, to notice any change */
	uint64_t	 headhash;	/* of the file's first SOURCE_HEAD bytes: a
					 * truncated and rewritten file shows other ones */
	uint32_t	 line_max;	/* SOURCE_LINE_MAX (less in tests) */
	uint32_t	 headlen;	/* <= SOURCE_HEAD */
	uint8_t		 skipping;	/* inside an over-long line */
	uint8_t		 midline;	/* a piece of the line being read was handed on */
	uint8_t		 document;	/* DOC_* */
	uint8_t		 doc_noted;	/* ... said to be incomplete */
	/* the line before (core/scan.c): its length, 0 for none (or over
	 * WRAP_MAX), and what it matched (PREV_*) */
	uint16_t	 prev;
	/* the column the file's lines were cut at (a terminal's, a form's),
	 * once two bare lines showed it; 0: none seen (core/scan.c) */
	uint16_t	 wrapcol;
};

/* A stream's: its pipe (0 for standard input; -1 once closed), the
 * command's process (0: none) and how it ended; and the spool, an
 * unlinked file in $TMPDIR that keeps what was read so that the console
 * can show it again, by its /proc/self/fd name (NULL: none). A file has
 * none of these (a run may have 100,000 files). */
struct srcstream {
	const char	*cmd;		/* the command, or "-" (in the source's allocation) */
	char		*spool;
	int		 fd;
	pid_t		 child;
	int		 status;	/* ... its wait status, once ended */
	int		 spool_fd;
	unsigned char	 ended;		/* the command was reaped */
	unsigned char	 spool_full;	/* a write failed: what follows is not kept */
};

struct srcsleep;
struct strset;

/* What a source's first bytes said of the year (source.head). */
enum {
	HEAD_UNSEEN,	/* not looked at yet */
	HEAD_UNDATED,	/* no dated line */
	HEAD_DATED,	/* a dated line: head_anchor */
};

struct source {
	/* (pointers, then 64-, 32-, 16- and 8-bit fields: a run may have
	 * 100,000, each 72 bytes and its name) */
	struct event_where where;	/* its name to show (relative to the run),
					 * its events' too, and a file's path (to
					 * open) or a stream's spool */
	struct srcread	*rd;		/* NULL until first read (source_reader),
					 * while asleep, and once retired */
	struct srcsleep	*asleep;	/* rd while it sleeps (source_sleep) */
	struct srcstream *st;		/* a stream's (below); NULL for a file */
	int64_t		 head_anchor;	/* its head's time (HEAD_DATED) */
	uint32_t	 id;		/* the owner's index for this source */
	int		 rank;		/* from the layout, -1 */
	int		 node;		/* node index from the layout, -1 */
	uint16_t	 nproc;		/* processes per node, 0 (more than
					 * 65,535: 0, not known) */
	int16_t		 failed;	/* why it cannot be read now (noted): an errno
					 * value, SOURCE_NOT_REGULAR; 0: it can */
	unsigned char	 kind;		/* enum source_kind */
	unsigned char	 head;		/* HEAD_*: its first bytes looked at for a
					 * year anchor */
	unsigned char	 skipped;	/* not a log: binary, or a rankwatch report */
	unsigned char	 opened;	/* a file that was opened once (rd->ino) */
	unsigned char	 done;		/* read once and nothing can follow (stdin EOF, error.json) */
	unsigned char	 noted_nul;
	unsigned char	 noted_group;
	unsigned char	 retired;	/* read for good: rd is gone */
};

/* Called for every complete line; the text is valid during the call only. */
typedef void (*source_line_fn)(void *arg, struct source *src,
    const char *text, size_t len, uint64_t offset, unsigned long lineno,
    int truncated);

struct source	*source_new(const char *path, const char *name,
		    enum source_kind kind, int rank, int node, int nproc);
/* The same, and when path is a folder's + name, the folder is kept once
 * in dirs (a run's 100,000 files share it), which must outlive the source
 * and its events. */
struct source	*source_new_in(struct strset *dirs, const char *path, const char *name,
		    enum source_kind kind, int rank, int node, int nproc);
/* What source_new was given as its path: a file's (into buf, of size),
 * or a stream's command ("-" for standard input); NULL: longer than
 * size. */
const char	*source_path(const struct source *src, char *buf, size_t size);
void		 source_free(struct source *src);
/* Nothing more will be read: let the reading state go, and the hosts
 * (the incident has its own copies of its events' and ranks' hosts once
 * their batches are applied); the names and the counts stay, for the
 * events and the report. The scanner's half-record must be released
 * first (scan_source_release). */
void		 source_retire(struct source *src);
/* Its reading state, made when first needed (a run of 100,000 files
 * holds one only for the files being read, in a report) and woken when
 * asleep; NULL once retired. */
struct srcread	*source_reader(struct source *src);
/* The file src's reading state last read and how far, and the one it
 * was before a rotation (0 when none), asleep or awake: 0 when it has no
 * reading state (not read yet, or retired). */
struct source_file_id {
	dev_t		 dev, prev_dev;
	ino_t		 ino, prev_ino;
	uint64_t	 offset, prev_offset;
};
int		 source_file_id(const struct source *src, struct source_file_id *id);
/* Its year anchor and whether a dated line gave it, asleep or awake; 0
 * when it has no reading state. */
int		 source_anchor(const struct source *src, int64_t *anchor, int *dated);
/* Read to its end for now, and followed: its reading state's arrays
 * shrink to what they hold, and the state sleeps (rd is NULL) as its
 * words that are not zero, until source_reader wakes it as it was, byte
 * for byte: a console that follows 16,384 files reads a few at a time
 * and keeps the others' states in a third of the room. */
void		 source_sleep(struct source *src);
/* A stream source: standard input (cmd NULL) or cmd's output, run now;
 * spool_dir: where to keep what it reads (NULL: nowhere). A command that
 * cannot be started leaves a failed source and a note. */
struct source	*source_new_stream(const char *cmd, int rank, const char *spool_dir,
		    struct notes *ns);
/* Keep what a stream reads in a new file in dir (a note when it cannot). */
void		 source_spool(struct source *src, const char *dir, struct notes *ns);
/* The file a source's lines can be read again from: its path, its
 * spool, or NULL (a stream without one). */
const char	*source_reread_path(const struct source *src, char *buf, size_t size);
/* Read what was appended since the last call (the whole file the first
 * time) and hand each complete line to fn. buf is scratch of at least
 * SOURCE_CHUNK bytes. Returns bytes read, or -1 when the file could not be
 * read (a note says why). */
long long	 source_read(struct source *src, char *buf, struct notes *ns,
		    source_line_fn fn, void *arg);
/* A file left open between two reads of it, for the reader that goes on
 * reading it (fd -1: none): the size it had when opened is where the
 * reads stop, as if it were read at once. No source keeps a descriptor:
 * a reader keeps one, of the file it is in the middle of. */
struct srchold {
	const struct source	*src;	/* compared only, never read */
	int			 fd;
	uint64_t		 size;
};

/* The same, stopping after about budget bytes (0: no limit); *more says
 * whether the file has more to read now. hold (NULL: none): when there
 * is more, the file stays open in it, and a next read of the same source
 * with it goes on from there without opening, checking and seeking again
 * (a read of another source closes it first). */
long long	 source_read_some(struct source *src, char *buf, struct notes *ns,
		    uint64_t budget, int *more, struct srchold *hold, source_line_fn fn,
		    void *arg);
/* Close what h holds. */
void		 source_unhold(struct srchold *h);
/* Split bytes p[0..n), the next ones of the file after what was fed so
 * far, into lines for fn: what source_read does with each chunk it reads.
 * A run of NUL bytes (a crash's unwritten block) ends a piece of its line
 * and is skipped; each piece is handed on with its line's number. However
 * the bytes are cut into calls, fn sees the same lines. */
void		 source_feed(struct source *src, const char *p, size_t n,
		    struct notes *ns, source_line_fn fn, void *arg);
/* A torchrun error.json's text[0..len): its message, one line per line
 * of the message (at most ERRORJSON_LINES), the first one stamped with the
 * error's timestamp; a note when it is not JSON. */
#define ERRORJSON_LINES	200
void		 source_errorjson(struct source *src, const char *text, size_t len,
		    struct notes *ns, source_line_fn fn, void *arg);
/* The host name h[0..n) as a string that lives until the source is
 * retired (its lines' records and events share it, until the incident
 * takes its own copy). */
const char	*source_host(struct source *src, const char *h, size_t n);
/* 1 the first time rank (a line's, -1 for none) is asked about. */
int		 source_first_of_rank(struct source *src, int rank);
/* Hand the partial last line to fn: at the end of a finished run. */
void		 source_flush(struct source *src, source_line_fn fn, void *arg);

#endif
