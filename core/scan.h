/* scan.h: the reading stage of a run, internal to core/run.c. A scanner
 * reads one source at a time (bytes -> lines -> matches -> events) and
 * writes what the incident must be told as records into a batch, in the
 * order it found them: a line's activity, an event, a signature that gave
 * up on a line, a note. It never touches the incident, the run's notes or
 * another source, so scanners on several threads can read several files
 * at once; the run applies the batches of each file in file order
 * (run.c), and so the incident sees the same sequence for any number of
 * threads, and for any way the bytes were cut into batches. */
#ifndef RW_SCAN_H
#define RW_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "event.h"
#include "line.h"
#include "matcher.h"
#include "notes.h"
#include "source.h"

enum rec_kind {
	REC_LINE,	/* lines of one rank, host and pid in a row: how many, their
			 * bytes, their earliest and latest time (all timed in the
			 * same second, or none timed) */
	REC_EVENT,	/* a matched line's event (the batch owns it until applied) */
	REC_GAVE_UP,	/* a signature hit its match limit on a line */
	REC_NOTE,	/* the batch's next note goes here */
};

struct rec {
	uint8_t		 kind;
	uint8_t		 hostlen;
	int32_t		 rank;		/* LINE */
	int32_t		 pid;		/* LINE; GAVE_UP: the PCRE2 error */
	uint32_t	 lines;		/* LINE */
	union {
		uint64_t	 bytes;		/* LINE: with their newlines */
		unsigned long	 lineno;	/* GAVE_UP */
	} n;
	union {
		const char		*host;	/* LINE: the source's copy, or NULL */
		struct event		*ev;	/* EVENT */
		const struct signature	*sig;	/* GAVE_UP */
	} u;
	struct stamp	 ts;		/* LINE: the earliest */
	struct stamp	 latest;	/* LINE */
};

/* What one read of one source found. */
struct batch {
	struct source	*src;
	struct rec	*v;
	size_t		 n, cap;
	struct evarena	 arena;		/* its events' (the incident copies those it keeps) */
	struct notes	 notes;		/* taken in order by REC_NOTE */
	size_t		 noted;		/* notes already given a REC_NOTE */
	long long	 bytes;		/* source_read_some's answer */
	int		 last;		/* the source's last batch of this pass (nothing
					 * more to read now) */
	struct batch	*next;		/* in a queue */
};

/* At most this many candidates a kept half asks (more: it asks none). */
#define SCAN_ASK	8

/* One reader of sources: a matcher of its own (or the run's) and a
 * chunk of scratch. */
struct scanner {
	struct matcher	*matcher;
	char		*buf;		/* SOURCE_CHUNK */
	struct srchold	 hold;		/* the file it is in the middle of */
	struct buf	 envbuf;	/* an envelope's decoded line */
	struct batch	*b;		/* being filled */
	int64_t		 anchor;	/* the run's year anchor */
	int		 anchor_dated;	/* ... if it has one; else ask: */
	/* the latest head anchor of the files before src in this pass, 0
	 * when none has one (NULL: none) */
	int		(*anchor_before)(void *arg, const struct source *src, int64_t *a);
	void		*anchor_arg;
	/* the line's candidates that did not match, which a first half of
	 * it kept asks (core/scan.c), copied before a join matches again */
	uint32_t	 ask[SCAN_ASK];
	size_t		 nask;
};

/* anchor: the run's year anchor (NULL: none), for a file that has no dated
 * line near its top. */
void	 scanner_init(struct scanner *sc, struct matcher *m, const int64_t *anchor);
void	 scanner_release(struct scanner *sc);
/* Read about budget bytes (0: all there is) of src into b (emptied
 * first); final: at the end of what there is, take the last line even
 * without its newline, and the events of the records it ends inside (a
 * signature's only_at_end). Sets b->bytes and b->last. */
void	 scanner_read(struct scanner *sc, struct source *src, uint64_t budget,
	    int final, struct batch *b);

struct batch *batch_new(void);
/* Empty b, freeing the events it still owns. */
void	 batch_clear(struct batch *b);
void	 batch_free(struct batch *b);

/* A dated line among the first 4 KiB of head[0..n), or else the first
 * 16 KiB: its time is the file's year anchor. */
int	 scan_head_anchor(const char *head, size_t n, int64_t *anchor);

/* Per source: free the half of a hard-wrapped record kept for the next
 * line, and the records held to the end (only_at_end). */
void	 scan_source_release(struct source *src);

#endif
