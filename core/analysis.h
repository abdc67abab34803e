/* analysis.h: the passes of incident_analyse, in the order they run.
 * Internal to core/: incident.c collects, these files decide, and each
 * decision is made in exactly one of them:
 *
 *   attribute.c  whose event is it: GPU bus ids, the rank, local rank or
 *                pid a launcher line names, and what the run says about
 *                its world size and ranks per node
 *   conditions.c cross-rank conditions from the rule files
 *   order.c      which rank failed first, and on what evidence the order
 *                rests (own clocks, a bound from the next line, line order
 *                in one stream, causality against a timeout)
 *   suspects.c   who is pointed at: conditions, silence, progress
 *   verdict.c    failure, hang or healthy; each rank's role; confidence and
 *                the one sentence that says what the answer rests on
 *   diagnose.c   which encyclopedia entries explain it, best first
 *
 * A pass reads the incident and what earlier passes put in struct passes
 * and struct analysis; only attribute.c changes events (their rank). */
#ifndef RW_ANALYSIS_H
#define RW_ANALYSIS_H

#include "buf.h"
#include "incident.h"

#define TIE_WINDOW	2	/* s: closer than this, clocks cannot order two failures */
#define SKEW_MATTERS	60	/* s: gaps below this may be clock skew across hosts */
#define SILENT_BEFORE	30	/* s: silent this long before the first timeout */
#define SILENT_MIN	120	/* s: silent this long while others log */
#define RECORD_SPAN	24	/* lines: how far one multi-line record reaches */

/* What the passes hand each other (scratch of one analysis). */
struct passes {
	const struct event	**co;		/* the initiating event first, then ranks tied with it */
	size_t			  nco;
	const struct event	 *first_coll;	/* earliest collateral event, timed or not */
	/* what the fallout says (order.c): a rank waited (a signature of
	 * weight 1 or more of an entry tagged hang or timeout), or failed
	 * of an error that began elsewhere (any other entry but a teardown) */
	int			  coll_waits, coll_errors;
	/* ... or only ended ranks: every collateral line a teardown, no
	 * line of last resort, no wait in any words */
	int			  coll_teardown_only;
	const struct event	 *first_told;	/* earliest collateral event of weight 1 or more */
	/* suspects: the ranks scored, each with its score, whether a
	 * condition blamed it, and why; at[rank] is its index (only ranks the
	 * evidence names are here, however high their numbers) */
	int			 *srank;
	double			 *score;
	unsigned char		 *blamed;
	uint32_t		 *whyhead;	/* its reasons: a list in whynode, */
	uint32_t		 *whytail;	/* ... 0 when it has none */
	size_t			  nscore, capscore;
	struct imap		  at;
	/* the reasons' texts, each kept once however many ranks it is
	 * given to (a condition that blames 16,383 ranks), and the list
	 * nodes that give them to ranks ([0] is unused) */
	char			**whytext;
	size_t			  nwhytext, capwhytext;
	struct whynode {
		uint32_t	 text;
		uint32_t	 next;		/* 0: the last */
	}			 *whynode;
	size_t			  nwhynode, capwhynode;
};

/* A rank's suspect score, 0 when it has none (suspects.c). */
double	passes_score(const struct passes *p, int rank);
int	passes_blamed(const struct passes *p, int rank);

/* attribute.c: give unranked events the rank their line names (a launcher
 * line's rank, local rank or pid; a kernel line's GPU), and work out the
 * world size and ranks per node the run establishes (an->world, 0 when
 * the logs do not say). Adds to an->assumptions what a mapping assumed. */
void	attribute_events(struct incident *in, struct analysis *an);
/* The ids of the facts attribution reads, into in->engine (called from
 * incident_new). */
void	attribute_init(struct incident *in);
/* What attribute_events reads of an event the incident only summarises
 * and does not keep: its world size, ranks per node and GPU bus facts,
 * folded into in->engine (called from incident_add_event). */
void	attribute_summarise(struct incident *in, const struct event *ev);
/* An event of a context line with no rank whose process (NCCL's
 * host:pid) names its own rank in a communicator ("comm 0x.. rank 3
 * nranks 16 ... Init COMPLETE": facts comm_rank and nranks): noted in
 * in->engine for attribute_events (called from incident_add_event). */
void	attribute_note_process(struct incident *in, const struct event *ev);

/* conditions.c: evaluate every rulebook condition into an->conds. */
void	conditions_evaluate(struct incident *in, struct analysis *an);

/* order.c: the initiating event, the entry that explains it
 * (an->init_entry) and the ranks tied with it (p->co), and the earliest
 * collateral event (p->first_coll). */
void	order_choose(struct incident *in, struct analysis *an, struct passes *p);
/* Is a certainly before b, by the evidence the two events carry (their
 * times and bounds, their place in one stream)? */
int	order_before(const struct event *a, const struct event *b);
/* The latest an event can have happened; 0 when unbounded. */
int	order_upper_bound(const struct event *ev, struct stamp *out);

/* suspects.c: score ranks (p->score, p->why), then an->suspects.
 * passes_release frees what it left in p. */
void	suspects_score(struct incident *in, struct analysis *an, struct passes *p);
void	passes_release(struct passes *p);

/* verdict.c: an->verdict, each rank's role, an->confidence, an->reason. */
void	verdict_decide(struct incident *in, struct analysis *an, struct passes *p);
void	verdict_roles(struct incident *in, struct analysis *an, struct passes *p);
void	verdict_explain(struct incident *in, struct analysis *an, struct passes *p);

/* diagnose.c: an->diags, best first. */
void	diagnose_entries(struct incident *in, struct analysis *an);

/* Shared by the passes (incident.c). */
struct rankstate *incident_rank_slot(struct incident *in, int rank);
void	incident_index(struct incident *in);
void	incident_rank_events(const struct incident *in, int rank, size_t *lo, size_t *hi);
const struct event *incident_first_of_rank(const struct incident *in, int rank,
	    int (*want)(const struct event *));
int	incident_want_initiating(const struct event *ev);
int	incident_want_own_failure(const struct event *ev);
int	incident_want_collateral(const struct event *ev);
int	incident_want_trouble(const struct event *ev);
/* A line of an error no entry reads (a catch-all by level: rulebook.h)
 * in a run whose other lines say that a rank failed or waited: it says
 * nothing they do not, and the analysis passes over it. */
int	incident_lone_muted(const struct incident *in, const struct event *ev);
int	incident_time_quality(const struct event *ev);
int	incident_is_active(const struct incident *in, int rank);
const char *incident_host(const struct incident *in, int rank);
int	incident_fact_number(const char *v, double *out);
char	*incident_fmt_num(double v);
int	incident_int_cmp(const void *a, const void *b);
int64_t	incident_span_ns(const struct stamp *a, const struct stamp *b);
/* The next rank number in a fact's text ("3", "1, 3", "[2-5]" gives 2 then
 * 5), advancing *v; 0 at the end. For about: suspect facts. */
int	incident_next_rank(const char **v, long *r);

#endif
