/* incident.h: what the events of a run add up to.
 * The incident collects events and per-rank activity as lines arrive
 * (incident_add_line, incident_add_event), and reasons over them on
 * demand (incident_analyse): which rank failed first (initiating), which
 * only reported the fallout (collateral), which went silent or fell
 * behind (suspects of a hang), and which encyclopedia entries explain it,
 * best first. Analysis reads the collected state and changes nothing, so
 * it can run after every batch of appended lines. */
#ifndef RW_INCIDENT_H
#define RW_INCIDENT_H

#include <stddef.h>
#include <stdint.h>

#include "bins.h"
#include "event.h"
#include "imap.h"
#include "factrows.h"
#include "strset.h"
#include "rulebook.h"

#define INCIDENT_MAX_RANK	(1 << 20)
#define INCIDENT_RANK_BLOCK	1024
#define INCIDENT_KEEP		3	/* events kept per rank and signature, plus the last */
#define INCIDENT_KEEP_ROUTINE	1	/* ... for progress and context lines (their
					 * numbers are in numstats), plus the last */
#define INCIDENT_KEEP_ABOUT	64	/* ... for unranked lines that name whom they are about */
/* The facts the attribution pass reads from any event (core/attribute.c,
 * by these names). It reads pci of each event one by one (the kernel line
 * it gives a rank): a signature that captures it keeps its events. The
 * others it also reads of the events the incident only summarises, from
 * struct engine_sum (attribute_summarise; comm_rank, with nranks, of
 * unranked lines as they arrive: attribute_note_process); pid only of
 * kept lines that name a rank (mpirun's "process rank 3 with PID 1167",
 * kept as lines about a rank). */
#define INCIDENT_ENGINE_FACTS	{ "bus_id", "pci", "nproc_per_node", "local_world_size", \
				  "world_size", "nranks", "comm_rank", "pid" }
#define INCIDENT_KEPT_FACT	"pci"
/* ... the others, in struct engine_sum's ids */
enum { ENGINE_WORLD_SIZE, ENGINE_NRANKS, ENGINE_NPROC_PER_NODE, ENGINE_LOCAL_WORLD_SIZE,
       ENGINE_BUS_ID, ENGINE_COMM_RANK, ENGINE__COUNT };

enum verdict {
	VERDICT_HEALTHY,
	VERDICT_FAILURE,
	VERDICT_HANG,
};

enum rank_role {
	RR_HEALTHY,
	RR_INITIATING,
	RR_COLLATERAL,
	RR_SUSPECT,	/* stalled, behind or otherwise pointed at in a hang */
	RR_SILENT,	/* stopped writing, or never wrote */
	RR__COUNT
};

/* The sum of one numeric fact of one signature on one rank, over every
 * event (kept or not), and how many: what a condition that compares a
 * rank's mean with the others' reads (signature.statfacts). */
struct numstat {
	double		 sum;
	uint32_t	 count;
	uint32_t	 sig:24;	/* signature index (below 2^24, or none kept) */
	uint32_t	 stat:8;	/* the fact: its statfacts[stat] (stat < 256) */
};

/* One signature a rank matched: how often, and where its newest copy is
 * kept. A rank holds these only for what it matched, not one per
 * signature of the rulebook. */
struct sigslot {
	uint32_t	 sig:31;	/* signature index */
	uint32_t	 held:1;	/* recent is the "last" copy: the one a
					 * newer event replaces, past the first few */
	uint32_t	 count;		/* events of it on this rank */
	int32_t		 recent;	/* index in incident.events of the newest copy kept, -1 */
};

/* A rank's slots are made four at a time (a big run's ranks match four or
 * five signatures), and its numstats follow them: its nnums numstats, in
 * one allocation from the incident's pool (RANKSTATE_BYTES). */
#define RANKSTATE_SLOTS(n)	(((size_t)(n) + 3) & ~(size_t)3)
#define RANKSTATE_BYTES(nslots, nnums)	\
	(RANKSTATE_SLOTS(nslots) * sizeof(struct sigslot) + (size_t)(nnums) * sizeof(struct numstat))
/* (NULL for a rank with neither: no arithmetic on a null pointer) */
#define rankstate_nums(rs)	((rs)->slots == NULL ? (struct numstat *)NULL : \
	(struct numstat *)((rs)->slots + RANKSTATE_SLOTS((rs)->nslots)))

struct rankstate {
	int		 rank;
	uint32_t	 k;		/* its index in incident.rank_v */
	unsigned long	 lines;
	struct stamp	 last;		/* last line with a time of its own */
	int64_t		 first_sec;	/* the first's second (the timeline's
					 * start of the rank), when last is set */
	double		 step;		/* last training step seen, -1 */
	const char	*host;		/* in incident.hosts */
	/* the signatures this rank matched (few), then the statistics of
	 * their numbers (rankstate_nums): one allocation */
	struct sigslot	*slots;
	uint32_t	 nslots, nnums;
	int32_t		 pid;		/* its process, from a line with both, -1 */
	/* filled by incident_analyse */
	enum rank_role	 role;
	struct bins	*bins;		/* lines and event roles per time slice;
					 * NULL when the incident keeps no
					 * timeline (incident_timeline) */
	const struct event *first_event;	/* first initiating/collateral/symptom */
	const char	*why;			/* one phrase for the role (static, or the rulebook's) */
};

struct suspect {
	int		 rank;
	double		 score;
	const char	*reason;	/* in analysis.reasons: ranks with the same reasons share it */
};

struct condresult {
	const struct condition	*cond;
	int			 met;
	int			*blamed;	/* ranks, ascending */
	size_t			 nblamed, capblamed;
	char			*detail;	/* "NumelIn 16320 on rank 5 vs 16384 on 7 ranks" */
};

struct diagnosis {
	const struct entry	 *entry;
	double			  evidence;
	double			  score;	/* 0..1 */
	int			  owns_initiating;
	const struct event	**evidence_events;	/* first event of each matched signature */
	size_t			  nevidence;
	struct condresult	**conds;	/* met conditions of this entry */
	size_t			  nconds;
	size_t			  ranks;	/* ranks with events of this entry */
	size_t			  ranks_initiating, ranks_collateral;
};

struct analysis {
	enum verdict		 verdict;
	const struct event	*initiating;	/* NULL in a hang */
	/* the entry that explains it: its own, or the reason its record
	 * gives after a generic line (order.c) */
	const struct entry	*init_entry;
	const char		*confidence;	/* "high" "medium" "low" */
	char			*reason;
	/* a failure of teardown only: the launcher or the scheduler ended
	 * the ranks, and no rank failed or waited before (verdict.c) */
	int			 stopped;
	struct suspect		*suspects;	/* best first */
	size_t			 nsuspects;
	char			**reasons;	/* the suspects' reasons, each once */
	size_t			 nreasons;
	struct diagnosis	*diags;		/* best first */
	size_t			 ndiags;
	struct condresult	*conds;		/* one per rulebook condition */
	size_t			 nconds;
	size_t			 role_count[RR__COUNT];
	int			 world;		/* ranks the run establishes; 0: the logs do not say */
	const char		*world_from;	/* what establishes it */
	int			 nodes;		/* nodes the logs show (hosts, labels, layout), >= 1 */
	int			 assumed_local;	/* a rank rests on local rank = global rank */
	int			 multi_host;	/* events from more than one host */
};

struct incident {
	const struct rulebook	*rb;
	/* Every rank the run shows (a line, an event), and only those: in
	 * rank order once incident_sort has run (incident_analyse does), and
	 * an analysis pass's per-rank arrays are indexed like it (by k). */
	struct rankstate	**rank_v;
	size_t			  rank_n, rank_cap;
	/* ... whose states are made INCIDENT_RANK_BLOCK at a time, in order
	 * of arrival, and freed with the incident: a run of 131,072 ranks
	 * is 128 allocations, not 131,072 */
	struct rankstate	**rank_blocks;
	size_t			  nrank_blocks;
	/* ... and their timelines, the same way (none without one) */
	struct bins		**bins_blocks;
	int			  no_timeline;
	struct bins		  unattributed_bins;
	struct imap		  rank_at;	/* rank -> index in rank_v */
	/* ... and the same for the ranks below ndense, by array: the ranks a
	 * run shows are mostly 0 to its size, looked up on every line */
	int32_t			 *dense;	/* index in rank_v, -1 */
	size_t			  ndense;
	struct strset		  hosts;	/* the ranks' hosts, each once */
	struct strset		  skeletons;	/* kept events' texts' (event_compact) */
	struct evpool		  pool;		/* the kept events' memory */
	struct event		**factex;	/* by signature index: the facts of its
						 * first event, which later ones share
						 * (event_compact), NULL */
	/* Routine signatures (progress, context) whose events nothing reads
	 * one by one (incident_summarised): a rank's are counted in its
	 * slot and numstats, and of all ranks' only the earliest is kept
	 * (sumfirst, an index in events, -1), for the evidence. What the
	 * nodes count reads of the others: the highest node + 1, and up to
	 * two of their hosts. */
	unsigned char		 *summarised;	/* by signature index: 1, or 2 with rows */
	int32_t			 *sumfirst;
	int			  sum_nodes;
	const char		 *sum_host[2];
	/* ... and what the world size reads of those whose line carries a
	 * rank of its own (not its file's): their file (sum_files 2: more
	 * than one), the first rank, and whether there was another */
	const char		 *sum_file;
	int			  sum_files, sum_r0, sum_several;
	/* ... and what conditions read of those they compare one by one
	 * (summarised 2): each rank's first and newest as a row */
	struct factrows		  rows;
	/* ... and what attribution reads of their facts (core/attribute.c) */
	struct engine_sum {
		int		  ids[ENGINE__COUNT];	/* fact ids (attribute_init) */
		long		  world[2];	/* the largest world_size, nranks; 0 */
		int		  nproc;	/* the largest ranks per node; 0 */
		struct engine_gpu {
			int32_t	  rank;
			uint32_t  bus;		/* the PCI bus of its bus_id */
		}		 *gpus;		/* each rank's GPU buses, as seen */
		size_t		  ngpus, capgpus;
		struct engine_comm {
			const char *host;	/* shared, NULL when unknown */
			int32_t	  pid;
			int32_t	  rank;		/* its rank in the communicator */
			long	  nranks;	/* ... of that many */
		}		 *comms;	/* NCCL's own lines that name the
						 * rank of the process printing
						 * them, on lines with no rank */
		size_t		  ncomms, capcomms;
	}			  engine;
	int			  rank_sorted;
	int			  top;		/* highest rank + 1 */
	struct rankstate	  unattributed;
	struct event		**events;
	size_t			  nevents, capevents;
	/* events that say a rank failed or waited (initiating, collateral),
	 * but for lines of an error no entry reads (incident_lone_muted) */
	size_t			  told_trouble;
	size_t			  order;
	unsigned long		  lines;
	uint64_t		  bytes;
	unsigned long		  timed_lines;
	struct stamp		  first, last;	/* of the whole run */
	int64_t			  bin0;		/* timeline origin (sec) */
	int64_t			  binw;		/* seconds per bin, 0 = unset */
	int			  multi_hosts;	/* ranks on more than one host */
	int			  step_fact;	/* fact ids the engine reads */
	int			  rank_fact, host_fact, exit_fact;
	struct analysis		  an;
	int			  analysed;
	/* sources of the run that could not be read (a file never readable,
	 * a command that failed), and the first one's name: the run says
	 * (incident_unread); a healthy verdict says what it does not cover */
	size_t			  unread;
	const char		 *unread_first;
	uint32_t		 *byrank;	/* analysis scratch: event indices grouped by rank */
	uint32_t		 *rankstart;	/* [rank + 1] -> start in byrank; [0] unattributed */
	uint32_t		 *bysig;	/* analysis scratch: event indices grouped by signature */
	size_t			 *sigstart;	/* [signature index] -> start in bysig */
	uint32_t		 *rowbysig;	/* ... and the same for rows */
	size_t			 *rowsigstart;
};

/* Where a kept event is, for bounding its borrowed time later. */
struct event_ref {
	uint32_t order;		/* struct event's */
	int32_t	 rank;
	uint32_t sig;
};

struct incident	*incident_new(const struct rulebook *rb);
/* Keep the ranks' activity by time slice for a timeline (on: the
 * default), or not (a report, which shows none: 32 bytes a rank less).
 * Before the first line. */
void		 incident_timeline(struct incident *in, int on);
void		 incident_free(struct incident *in);
/* Account for one line (activity, times); call for every line. */
void		 incident_add_line(struct incident *in, const struct line *ln);
/* Account for nlines lines of ln's rank, host and pid, of nbytes bytes in
 * all, all timed in the second of ln->ts (the earliest; latest the
 * latest) or none timed: as incident_add_line on each of them. */
void		 incident_add_lines(struct incident *in, const struct line *ln,
		     uint32_t nlines, uint64_t nbytes, const struct stamp *latest);
/* Take an event (the incident owns it from now on). Returns the copy it
 * keeps (perhaps a compacted one: ev is then freed), or NULL when it only
 * counted it and freed it: it says again what its rank's newest kept event
 * of the signature said, or it is a summarised one later than the kept. */
struct event	*incident_add_event(struct incident *in, struct event *ev);
/* Are a signature's ranked events summarised (see incident.summarised)?
 * Progress and context lines that say nothing of whom they are about and
 * capture no INCIDENT_KEPT_FACT (a kernel line's GPU, which attribution
 * gives a rank). The other engine facts (a GPU's bus id, the ranks per
 * node, the world size) are read as they arrive into incident.engine.
 * A condition that compares their facts one by one (any but an outlier
 * over each rank's mean, which reads numstats) reads them as rows (2). */
int		 incident_summarised(const struct incident *in, const struct signature *sig);
/* A reference to an event just added (it is kept until a newer event of
 * its rank and signature replaces it). */
struct event_ref incident_event_ref(const struct incident *in, const struct event *ev);
/* The event's borrowed time is bounded from above by upper (the next own
 * time in its file); nothing when the event is no longer kept. */
void		 incident_bound_event(struct incident *in, const struct event_ref *ref,
		     const struct stamp *upper);
/* How many of the run's sources could not be read, the first's name
 * (which must outlive the incident's analyses). */
void		 incident_unread(struct incident *in, size_t n, const char *first);
/* Reason over what has been collected; the result stays valid until the
 * next add or analyse. */
const struct analysis *incident_analyse(struct incident *in);

/* A rank's state (the unattributed lines' for rank < 0), NULL when the run
 * has not shown it. */
struct rankstate *incident_rank(const struct incident *in, int rank);
/* Put rank_v in rank order (and each k): before iterating it. */
void		 incident_sort(struct incident *in);
/* Number of ranks that wrote at least one line. */
size_t		 incident_active_ranks(const struct incident *in);

/* Did this run show an entry's signal (one of its signature or condition
 * ids, or "entry/signature")? 1 with the first event (NULL for a condition)
 * and a detail (the condition's), else 0. Needs a fresh analysis. */
int		 incident_signal(struct incident *in, const struct entry *e,
		     const char *signal, const struct event **first, const char **detail);

const char	*verdict_name(enum verdict v);
const char	*rank_role_name(enum rank_role r);
/* "0-136,138-255" for the ranks whose role is r; caller frees. */
char		*incident_ranks_with_role(const struct incident *in, enum rank_role r);
/* Compress a sorted list of ranks into ranges; caller frees. */
char		*ranks_compress(const int *ranks, size_t n);
/* The suspects that share the first one's score, as the report names them
 * ("rank 4", "ranks 4-7"): no one of ranks that tie is called likelier
 * than the others. *n (if n is not NULL) gets how many; caller frees. */
char		*analysis_lead_suspects(const struct analysis *an, size_t *n);

#endif
