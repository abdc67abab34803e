/* line.c: peel prefixes and headers off a log line; give it a rank and a time.
 * Hand-written matchers, not regexes: this runs on every line of every file.
 * It must never read past len and never allocate. */
#include "config.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "buf.h"
#include "line.h"

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static int
isupper_(char c)
{
	return c >= 'A' && c <= 'Z';
}

static int
isalpha_(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
issev(char c)
{
	return c == 'F' || c == 'E' || c == 'W' || c == 'I' || c == 'V';
}

/* Read a decimal number of at most maxd digits; returns digits read (0:
 * none, or more than maxd). A run of up to 8 digits is found and read 8
 * bytes at a time (SWAR), without a branch per digit: most numbers of a
 * prefix or a header are short, and many words start with none. */
static inline size_t
number(const char *p, size_t n, size_t maxd, long *out)
{
	size_t i = 0;
	long v = 0;

	if (n >= 8) {
		uint64_t x, bad;
		unsigned d;

		memcpy(&x, p, 8);
		/* a byte is a digit: high nibble 3, low nibble + 6 < 16 */
		bad = ((x & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull) |
		    (((x & 0x0f0f0f0f0f0f0f0full) + 0x0606060606060606ull) &
		    0xf0f0f0f0f0f0f0f0ull);
		if (bad != 0) {
			d = (unsigned)__builtin_ctzll(bad) / 8;
			if (d == 0 || d > maxd)
				return 0;
			/* the d digits at the top, zeros below: "000123" */
			x = (x - 0x3030303030303030ull) << (8 * (8 - d));
			x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
			x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
			x = (x * 10000 + (x >> 32)) & 0xffffffffull;
			*out = (long)x;
			return d;
		}
	}
	while (i < n && i < maxd && isdig(p[i])) {
		v = v * 10 + (p[i] - '0');
		i++;
	}
	if (i == 0 || (i < n && isdig(p[i])))
		return 0;
	*out = v;
	return i;
}

const char *
rank_from_name(enum rank_from f)
{
	switch (f) {
	case RANK_NONE:
		return "none";
	case RANK_GROUP:
		return "group-rank";
	case RANK_FILE:
		return "file";
	case RANK_INHERIT:
		return "record";
	case RANK_LOCAL:
		return "local-rank";
	case RANK_SUMMARY:
		return "torchrun-summary";
	case RANK_NAMED:
		return "named-in-message";
	case RANK_POD:
		return "pod";
	case RANK_LABEL:
		return "launcher-label";
	case RANK_PREFIX:
		return "rank-prefix";
	}
	return "?";
}

void
linestate_init(struct linestate *st, int file_rank, int node, int64_t mtime)
{
	memset(st, 0, sizeof *st);
	st->file_rank = file_rank;
	st->node = node;
	st->anchor = mtime;
	st->record_rank = -1;
	st->sum_rank = -1;
	st->max_local = -1;
	st->env_label = -1;
	st->pod_label = -1;
}

/* --- launcher prefixes ------------------------------------------------ */

struct peeled {
	int	prefix_rank;	/* [rankN]: */
	int	label;		/* srun label / mpi rank */
	int	tee_local;	/* [defaultN]: */
	int	tee_global;	/* [N]: template with ${rank} */
	long	pid;		/* Ray's (... pid=N ...) */
	int	group;		/* vLLM's (Worker_TPn pid=N): a tensor-parallel rank */
	const char *host;	/* pdsh "host: ", a pod's "name: " */
	size_t	hostlen;
	int	no_host;	/* after a header: "10.0.0.2: refused" is text;
				 * 2: after a time alone, a collector's "pod-0 >> " */
	int	any;
	uint32_t *hosts;	/* the stream's plain host names (linestate) */
	char	sev;		/* a logger's level tag among the prefixes */
	int	replica;	/* after TorchX's "role/N ": [N]: is a local rank */
};

/* Nothing peeled yet (the stream's host names set by the caller). */
static const struct peeled peeled_none = { -1, -1, -1, -1, -1, -1, NULL, 0, 0, 0, NULL, 0, 0 };

/* Characters of host and pod names: 1 letter or _, 2 digit, 3 - or . */
static const unsigned char hostclass[256] = {
	['-'] = 3, ['.'] = 3, ['_'] = 1,
	['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2,
	['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1,
	['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1,
	['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
	['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
	['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

/* How many of the first bytes of p[0..n), at most max, are host
 * characters; *seen gets 1 << class of each class among them. Most lines
 * have none or a short word there: 16 bytes are classed at once, so the
 * length of the word costs no mispredicted branch. */
static size_t
host_span(const char *p, size_t n, size_t max, unsigned *seen)
{
	size_t i = 0, lim = n < max ? n : max;
	unsigned s = 0, c;
#ifdef __SSE2__
	const __m128i bias = _mm_set1_epi8((char)0x80);

	for (; i + 16 <= lim; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i lo = _mm_or_si128(x, _mm_set1_epi8(0x20));
		/* unsigned a < b as signed (a ^ 0x80) < (b ^ 0x80) */
		__m128i letter = _mm_or_si128(_mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(lo,
		    _mm_set1_epi8('a')), bias), _mm_set1_epi8((char)(26 ^ 0x80))),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
		__m128i digit = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8('0')),
		    bias), _mm_set1_epi8((char)(10 ^ 0x80)));
		__m128i punct = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('.')));
		unsigned lm = (unsigned)_mm_movemask_epi8(letter);
		unsigned dm = (unsigned)_mm_movemask_epi8(digit);
		unsigned pm = (unsigned)_mm_movemask_epi8(punct);
		unsigned ok = lm | dm | pm, k = 16, in = 0xffff;

		if (ok != 0xffff) {
			k = (unsigned)__builtin_ctz(~ok);
			in = (1u << k) - 1;
		}
		s |= (lm & in ? 1u << 1 : 0) | (dm & in ? 1u << 2 : 0) | (pm & in ? 1u << 3 : 0);
		if (k < 16) {
			*seen = s;
			return i + k;
		}
	}
#endif
	for (; i < lim && (c = hostclass[(unsigned char)p[i]]) != 0; i++)
		s |= 1u << c;
	*seen = s;
	return i;
}

/* A plain host name, "gpu003", "node1", "dgx01": letters (and _), then
 * digits, up to 32 bytes; not "rank3", and not in capitals only, as
 * Ascend's error codes are ("EI0002: [PID: 13075] ..."). */
static int
plain_host(const char *p, size_t n)
{
	size_t i = 0;
	int lower = 0;

	if (n >= 4 && (p[0] | 0x20) == 'r' && memcmp(p + 1, "ank", 3) == 0)
		return 0;
	for (; i < n && hostclass[(unsigned char)p[i]] == 1; i++)
		lower |= p[i] >= 'a' && p[i] <= 'z';
	if (i == 0 || i == n || n > 32 || !lower)
		return 0;
	while (i < n && isdig(p[i]))
		i++;
	return i == n;
}

/* The length of the dotted name at p ("torch.cuda.OutOfMemoryError"):
 * letters, digits, '_' and '.', at most max bytes. */
static size_t
dotted_name(const char *p, size_t n, size_t max)
{
	size_t i = 0;

	while (i < n && i < max && (isalpha_(p[i]) || isdig(p[i]) || p[i] == '.' || p[i] == '_'))
		i++;
	return i;
}

/* Is the name p[0..i) an exception's, "...Error" or "...Exception"? */
static int
error_name(const char *p, size_t i)
{
	return (i >= 5 && memcmp(p + i - 5, "Error", 5) == 0) ||
	    (i >= 9 && memcmp(p + i - 9, "Exception", 9) == 0);
}

/* What may follow "host: " on a line of a log: a date or a bracket, a
 * traceback's head or its last line ("RuntimeError: ..."). */
static int
log_start(const char *p, size_t n)
{
	size_t i;

	if (n > 10 && (p[0] == '[' || (isdig(p[0]) && isdig(p[1]) &&
	    (p[2] == '/' || (isdig(p[2]) && isdig(p[3]) && p[4] == '-'))) ||
	    starts(p, n, "Traceback (most recent call last)")))
		return 1;
	i = dotted_name(p, n, 96);
	return i > 0 && (i == n || p[i] == ':') && error_name(p, i);
}

/* Is p[0..n) a plain host name this stream showed before a log line
 * ("gpu003: [2024-..."), or is it one now (then it is remembered)? A
 * name alone, "node1: RuntimeError: boom", could be a message's word. */
static int
plain_host_known(const char *p, size_t n, const char *rest, size_t restlen,
    uint32_t *hosts)
{
	uint32_t h;
	size_t k;

	if (hosts == NULL || !plain_host(p, n))
		return 0;
	h = (uint32_t)fnv1a(FNV1A_INIT, p, n) | 1;	/* (0: an empty slot) */
	for (k = 0; k < LINE_HOSTS; k++)
		if (hosts[k] == h)
			return 1;
	if (!log_start(rest, restlen))
		return 0;
	memmove(hosts + 1, hosts, (LINE_HOSTS - 1) * sizeof *hosts);
	hosts[0] = h;
	return 1;
}

/* Is p[0..n) a Python class's dotted name, "jinja2.exceptions.TemplateNotFound"
 * (no '-', its last part capitalised, then lower case), not a host's
 * (lower case by custom, or an address)? */
static int
python_class(const char *p, size_t n)
{
	const char *dot = memrchr(p, '.', n);

	return dot != NULL && (size_t)(dot - p) + 3 < n && isupper_(dot[1]) &&
	    dot[2] >= 'a' && dot[2] <= 'z' && memchr(p, '-', n) == NULL;
}

/* grep's name of the file each line was found in, when it searched
 * several ("rank3.log:", with -n "rank3.log:120:"; not its lines of
 * context, "rank3.log-120-", whose '-' a name may hold too): the name of
 * a log file (.log .out .err .txt), taken as the line's host (its
 * stream). Its length, or 0. */
static size_t
grep_name(const char *p, size_t n, struct peeled *pl)
{
	size_t i, d;
	long v;

	for (i = 0; i < n && i < 200 && (hostclass[(unsigned char)p[i]] != 0 || p[i] == '/'); i++)
		;
	if (i < 5 || i + 1 >= n || p[i] != ':' || p[i - 4] != '.' ||
	    (memcmp(p + i - 3, "log", 3) != 0 && memcmp(p + i - 3, "out", 3) != 0 &&
	    memcmp(p + i - 3, "err", 3) != 0 && memcmp(p + i - 3, "txt", 3) != 0))
		return 0;
	pl->host = p;
	pl->hostlen = i - 4;
	i++;
	if ((d = number(p + i, n - i, 9, &v)) != 0 && i + d < n && p[i + d] == ':')
		i += d + 1;
	return i;
}

/* A host, IP or pod name that a fan-out tool put in front of every line
 * (pdsh and clush "host: ", mpi-operator pods "job-launcher: ", runners
 * "node-3 [stderr] ", docker compose "svc-1  | "): letters, digits and
 * - . _, with at least one digit
 * and one - or . (an exception's name has neither: "RuntimeError: " is a
 * message), or a plain name the stream showed before a log line (above).
 * Returns its length with the separator, or 0. */
static size_t
host_prefix(const char *p, size_t n, struct peeled *pl)
{
	size_t i, g;
	unsigned seen;

	/* most lines start with a date: "2024-12-18 " is no host */
	if (n > 10 && isdig(p[0]) && p[4] == '-' && p[7] == '-' && p[10] == ' ')
		return 0;
	i = host_span(p, n, 64, &seen);
	/* grep's "rank3.log:" or "logs/rank3.log:" (grep_name) */
	if (!pl->no_host && i < n && (p[i] == '/' || (p[i] == ':' && i >= 5 && p[i - 4] == '.')) &&
	    (g = grep_name(p, n, pl)) != 0)
		return g;
	if (i < 2 || i >= n || hostclass[(unsigned char)p[0]] == 3 ||
	    (p[i] != ':' && p[i] != ' '))
		return 0;
	if (p[i] == ' ' && !pl->no_host && ((seen & (1u << 3)) || memchr(p, '_', i) != NULL)) {
		/* docker compose: "svc-1  | " (padded to the longest name,
		 * which ends in its replica number, "-1" or v1's "_1", or is
		 * the compose file's container_name, "vllm-service  | ") */
		size_t j;

		for (j = i; j < n && j < i + 64 && p[j] == ' '; j++)
			;
		if (j + 1 < n && p[j] == '|' && p[j + 1] == ' ') {
			pl->host = p;
			pl->hostlen = i;
			return j + 2;
		}
	}
	if (!(seen & (1u << 2)))
		return 0;
	if (!(seen & (1u << 3)) && (pl->no_host || p[i] != ':' || i + 2 >= n || p[i + 1] != ' ' ||
	    !plain_host_known(p, i, p + i + 2, n - i - 2, pl->hosts)))
		return 0;
	if (p[i] == ':' && python_class(p, i))
		return 0;
	pl->host = p;
	pl->hostlen = i;
	if (p[i] == ':' && i + 1 < n && p[i + 1] == ' ' && !pl->no_host)
		return i + 2;
	if (starts(p + i, n - i, " >> "))	/* log collectors: "pod-0 >> " */
		return i + 4;
	if (p[i] == ' ' && (starts(p + i, n - i, " [stderr] ") ||
	    starts(p + i, n - i, " [stdout] ")))
		return i + 10;
	if (p[i] == ' ' && (starts(p + i, n - i, " [stderr]: ") ||
	    starts(p + i, n - i, " [stdout]: ")))
		return i + 11;
	pl->host = NULL;
	pl->hostlen = 0;
	return 0;
}

/* "]<stream>:" at p[i] ends a tag whose rank is v: the prefix's length,
 * or 0. */
static size_t
stream_tag(const char *p, size_t n, size_t i, long v, struct peeled *pl)
{
	const char *e;

	if (!starts(p + i, n - i, "]<"))
		return 0;
	e = memchr(p + i, '>', n - i < 16 ? n - i : 16);
	if (e == NULL || e + 1 >= p + n || e[1] != ':')
		return 0;
	pl->label = (int)v;
	i = (size_t)(e - p) + 2;
	if (i < n && p[i] == ' ')
		i++;
	return i;
}

/* Open MPI --tag-output "[jobid,rank]<stream>:", its jobid (d digits)
 * read: the prefix's length, or 0. */
static size_t
mpi_tag(const char *p, size_t n, size_t d, struct peeled *pl)
{
	size_t i = 2 + d;
	long v;

	if ((d = number(p + i, n - i, 7, &v)) == 0)
		return 0;
	return stream_tag(p, n, i + d, v, pl);
}

/* The groups a serving framework's worker tag names, in p[0..n) (the tag
 * before its "pid="): vLLM V1's "Worker_DP1_PP0_TP3_EP7", its 0.10
 * "VllmWorker DP0 PP1 TP3" and "VllmWorkerProc[dp_rank=0,tp_rank=3]":
 * each group the worker is in, with its rank in it. The tensor-parallel
 * rank is the worker's rank when it is in no other group but rank 0 of
 * each (an expert-parallel rank follows from the others); else -1, as for
 * a tag without one. Ray's "rank=N" (no group before it) is the label's
 * business, not this. */
static int
worker_tp(const char *p, size_t n)
{
	size_t i, d;
	long v;
	int tp = -1, other = 0;

	for (i = 0; i + 3 <= n; i++) {
		const char *g;

		if (i > 0 && strchr(" _,[(", p[i - 1]) == NULL)
			continue;
		g = p + i;
		if (isupper_(g[0]) && isupper_(g[1]) &&
		    (d = number(g + 2, n - i - 2, 6, &v)) != 0 &&
		    (i + 2 + d == n || strchr(" _,]", g[2 + d]) != NULL))
			i += 2;
		else if (i + 8 < n && g[0] >= 'a' && g[0] <= 'z' && memcmp(g + 2, "_rank=", 6) == 0 &&
		    (d = number(g + 8, n - i - 8, 6, &v)) != 0)
			i += 8;
		else
			continue;
		if ((g[0] | 0x20) == 't' && (g[1] | 0x20) == 'p')
			tp = (int)v;
		else if (((g[0] | 0x20) == 'd' || (g[0] | 0x20) == 'p') &&
		    (g[1] | 0x20) == 'p' && v != 0)
			other = 1;
		i += d - 1;
	}
	return other ? -1 : tp;
}

/* NCCL's "host:pid:tid " at p (its lines' own prefix): its length, with
 * the host's in *hostlen and the pid; 0 when p does not start so. The
 * host: letters, digits, '-', '.', '_' up to the first ':' (HOST_NAME_MAX
 * 64); most messages fail at their first word. */
static inline size_t
nccl_head(const char *p, size_t n, size_t *hostlen, long *pid)
{
	unsigned seen;
	size_t i = host_span(p, n, 65, &seen), d;
	long tid;

	if (i == 0 || i >= n || p[i] != ':')
		return 0;
	*hostlen = i++;
	if ((d = number(p + i, n - i, 10, pid)) == 0 || i + d >= n || p[i + d] != ':')
		return 0;
	i += d + 1;
	if ((d = number(p + i, n - i, 10, &tid)) == 0 || i + d >= n || p[i + d] != ' ')
		return 0;
	return i + d + 1;
}

/* Determined's trial logs: "<container id, 8 hex digits> [rank=N] || "
 * after the time; N is the process's rank. Its length, or 0. */
static size_t
determined_tag(const char *p, size_t n, struct peeled *pl)
{
	size_t i, d;
	long v;

	for (i = 0; i < n && i < 9 && (isdig(p[i]) || (p[i] >= 'a' && p[i] <= 'f')); i++)
		;
	if (i != 8 || n - i < 12 || memcmp(p + i, " [rank=", 7) != 0 ||
	    (d = number(p + i + 7, n - i - 7, 7, &v)) == 0)
		return 0;
	i += 7 + d;
	if (n - i < 4 || memcmp(p + i, "] ||", 4) != 0)
		return 0;
	i += 4;
	if (i < n && p[i] == ' ')
		i++;
	pl->label = (int)v;
	return i;
}

/* UCX's ids after a host name's ':' at p[i]: the pid (padded with
 * spaces, up to i + pad), then fields ':'-separated numbers (the thread;
 * on a fatal signal the tid too), then ']'. Where the ']' is, or 0. */
static size_t
ucx_ids(const char *p, size_t n, size_t i, size_t pad, int fields, long *pid)
{
	size_t j, d;
	long x;
	int k;

	if ((d = number(p + i + 1, n - i - 1, 10, pid)) == 0)
		return 0;
	for (j = i + 1 + d; j < n && p[j] == ' ' && j < i + pad; j++)
		;
	for (k = 0; k < fields; k++) {
		if (j >= n || p[j] != ':' ||
		    (d = number(p + j + 1, n - j - 1, k == 0 ? 6 : 10, &x)) == 0)
			return 0;
		j += 1 + d;
	}
	return j < n && p[j] == ']' ? j : 0;
}

/* UCX (Open MPI, HPC-X) on a fatal signal: "[host:pid:thread:tid] ", the
 * pid padded ("[node3:5283 :0:5704] Caught signal 7 (Bus error ..."): the
 * host and the pid. i: where the host's span ends, at its ':'. Its
 * length, or 0. */
static size_t
ucx_head(const char *p, size_t n, size_t i, struct peeled *pl)
{
	size_t j;
	long pid;

	if ((j = ucx_ids(p, n, i, 16, 2, &pid)) == 0 || j + 1 >= n || p[j + 1] != ' ')
		return 0;
	pl->host = p + 1;
	pl->hostlen = i - 1;
	pl->pid = pid;
	return j + 2;
}

/* Open MPI's crash handler: "[host:pid] " before each line of its block
 * ("[e53955024127:106967] *** Process received signal ***", "Signal: ",
 * "Signal code: ", "Failing at address: ", "[ 3] frame"). The host with a
 * letter and a digit (seen: host_span's classes), the pid of two digits
 * or more; other words after it are a message's ("[node3:55] pending").
 * Its length, or 0. */
static size_t
ompi_head(const char *p, size_t n, size_t i, unsigned seen, struct peeled *pl)
{
	size_t j, k;
	long pid;

	if ((seen & 0x6) != 0x6 || (j = ucx_ids(p, n, i, 0, 0, &pid)) == 0 || j < i + 3 ||
	    j + 2 >= n || p[j + 1] != ' ')
		return 0;
	k = j + 2;
	if (!starts(p + k, n - k, "*** ") && !starts(p + k, n - k, "Signal: ") &&
	    !starts(p + k, n - k, "Signal code: ") && !starts(p + k, n - k, "Failing at address: ") &&
	    !(p[k] == '[' && k + 2 < n && (p[k + 1] == ' ' || isdig(p[k + 1]))))
		return 0;
	pl->host = p + 1;
	pl->hostlen = i - 1;
	pl->pid = pid;
	return j + 2;
}

/* Is p[0..n) four dot-separated numbers (an IPv4 address)? */
static int
dotted_quad(const char *p, size_t n)
{
	size_t i, dots = 0;

	for (i = 0; i < n; i++)
		if (p[i] == '.')
			dots++;
		else if (!isdig(p[i]))
			return 0;
	return dots == 3;
}

/* A log collector's "[pod-or-host] " before a log line ("[job-master-0]
 * [2026-03-30 19:24:35,966] ...", a cloud trainer's job log): a host name
 * with a digit and a - or ., then "] " and a date, a bracket or a
 * traceback; or UCX's head (ucx_head) or Open MPI's (ompi_head): the
 * host's span is read once for all. Its length, or 0. */
static size_t
bracket_host(const char *p, size_t n, struct peeled *pl)
{
	unsigned seen;
	size_t i = 1 + host_span(p + 1, n - 1, 64, &seen);

	if (i < 3 || i + 2 >= n)
		return 0;
	if (p[i] == ':') {
		size_t k = ucx_head(p, n, i, pl);

		return k != 0 ? k : ompi_head(p, n, i, seen, pl);
	}
	if (p[i] != ']' || p[i + 1] != ' ' || (seen & 0xc) != 0xc ||
	    hostclass[(unsigned char)p[1]] == 3 || !log_start(p + i + 2, n - i - 2) ||
	    ((seen & 0x2) == 0 && !dotted_quad(p + 1, i - 1) && memchr(p + 1, '-', i - 1) == NULL))
		return 0;	/* (digits and one '.': a time, UCX's "[1700000000.123456] ") */
	pl->host = p + 1;
	pl->hostlen = i - 1;
	return i + 2;
}

/* torch_xla's xla_dist, a TPU pod's launcher, after its date:
 * "10.164.0.29 [3] " (the worker's address and index: a host, whose
 * cores run several ranks). Its own lines ("DATE  [] ") are left as they
 * are. */
static size_t
xla_worker(const char *p, size_t n, struct peeled *pl)
{
	size_t i = 0, d;
	long v;
	int k;

	for (k = 0; k < 4; k++) {
		if ((d = number(p + i, n - i, 3, &v)) == 0 || v > 255)
			return 0;
		i += d;
		if (k < 3 && (i >= n || p[i++] != '.'))
			return 0;
	}
	if (i + 4 >= n || p[i] != ' ' || p[i + 1] != '[' ||
	    (d = number(p + i + 2, n - i - 2, 4, &v)) == 0 ||
	    !starts(p + i + 2 + d, n - i - 2 - d, "] "))
		return 0;
	pl->host = p;
	pl->hostlen = i;
	return i + 2 + d + 2;
}

/* TorchX's "torchx log": "ROLE/REPLICA " before each line of a replica
 * (a node running torchrun, whose --tee prefix follows: "[3]:" with the
 * empty role TorchX's dist.ddp gives it, "[default3]:", "[rank3]:"). The
 * replica is the node's label. */
static size_t
torchx_replica(const char *p, size_t n, struct peeled *pl)
{
	size_t i, j, d;
	long v, w;
	unsigned seen;

	i = host_span(p, n, 64, &seen);
	if (i == 0 || i >= n || p[i] != '/' || !isalpha_(p[0]))
		return 0;
	if ((d = number(p + i + 1, n - i - 1, 5, &v)) == 0)
		return 0;
	i += 1 + d;
	if (i + 1 >= n || p[i] != ' ' || p[i + 1] != '[')
		return 0;
	/* only before torchrun's prefix, "[" letters, digits, "]:" */
	for (j = i + 2; j < n && j < i + 66 && isalpha_(p[j]); j++)
		;
	if ((d = number(p + j, n - j, 6, &w)) == 0 || !starts(p + j + d, n - j - d, "]:"))
		return 0;
	pl->label = (int)v;
	pl->replica = 1;
	return i + 1;
}

/* One launcher prefix at p; returns its length or 0. */
static size_t
peel_one(const char *p, size_t n, struct peeled *pl)
{
	size_t i, d;
	long v, w;

	if (n == 0)
		return 0;
	/* a colour code between prefixes ("(Worker pid=1)\033[0m [rank2]:") */
	if (p[0] == 0x1b && n > 3 && p[1] == '[') {
		for (i = 2; i < n && i < 12 && (isdig(p[i]) || p[i] == ';'); i++)
			;
		if (i < n && p[i] == 'm') {
			i++;
			if (i + 1 < n && p[i] == ' ' && (p[i + 1] == '[' || p[i + 1] == '('))
				i++;
			return i;
		}
		return 0;
	}
	/* srun --label: "%*d: " space padded; het jobs "P%u %*d: " */
	i = 0;
	if (p[0] == 'P' && n > 1 && isdig(p[1])) {
		if ((d = number(p + 1, n - 1, 6, &w)) == 0)
			return 0;
		i = 1 + d;
		if (i >= n || p[i] != ' ')
			return 0;
	}
	while (i < n && p[i] == ' ' && i < 12)
		i++;
	/* (after a launcher's rank tag, "6: [" is the program's text:
	 * Horovod's list of stalled ranks under mpirun's "[1,0]<stderr>:") */
	if (pl->label < 0 && i < n && isdig(p[i]) && (d = number(p + i, n - i, 6, &v)) != 0 &&
	    i + d + 1 < n && p[i + d] == ':' && p[i + d + 1] == ' ') {
		pl->label = (int)v;
		return i + d + 2;
	}
	if (p[0] == '[' && n > 1 && isdig(p[1])) {
		/* a number first: read once for the three forms that start so
		 * (and "[2024-12-18 ...", most such lines, is none) */
		if ((d = number(p + 1, n - 1, 12, &v)) == 0)
			return 0;
		/* a line number a paste or a log collector put first,
		 * "[80746] [rank0]:..." */
		if (d <= 9 && starts(p + 1 + d, n - 1 - d, "] [") &&
		    1 + d + 2 < n && p[1 + d + 2] == '[' && (starts(p + 1 + d + 2, n - 1 - d - 2,
		    "[rank") || starts(p + 1 + d + 2, n - 1 - d - 2, "[default") ||
		    (n - 1 - d - 2 > 2 && issev(p[1 + d + 3]))))
			return 1 + d + 2;
		/* Open MPI --tag-output [jobid,rank]<stream>: */
		if (1 + d < n && p[1 + d] == ',')
			return mpi_tag(p, n, d, pl);
		/* horovodrun's own (Gloo) launcher: [rank]<stream>: */
		if (d <= 7 && 1 + d < n && p[1 + d] == ']' && (i = stream_tag(p, n, 1 + d, v, pl)) != 0)
			return i;
		/* horovodrun's "[N]" glued to NCCL's "host:pid:tid [dev]" */
		if (d <= 6 && 1 + d + 1 < n && p[1 + d] == ']' &&
		    nccl_head(p + 2 + d, n - 2 - d, &i, &w) != 0) {
			pl->tee_global = (int)v;
			return 2 + d;
		}
		/* a ${rank} template [N]: followed by text ("[0]:" alone is the
		 * failure summary); after TorchX's replica, torchrun's --tee
		 * with the empty role TorchX gives it: a local rank */
		if (d <= 6 && starts(p + 1 + d, n - 1 - d, "]:") && 1 + d + 2 < n) {
			if (pl->replica)
				pl->tee_local = (int)v;
			else
				pl->tee_global = (int)v;
			return 1 + d + 2;
		}
		/* UCX, a host name that starts with a digit */
		if (1 + d < n && p[1 + d] != '-' && pl->host == NULL)
			return bracket_host(p, n, pl);
		return 0;
	}
	if (p[0] == '[') {
		/* PyTorch [rankN]: (C++ logger: no space; excepthook: a space) */
		if (starts(p, n, "[rank") && (d = number(p + 5, n - 5, 7, &v)) != 0 &&
		    starts(p + 5 + d, n - 5 - d, "]:")) {
			i = 5 + d + 2;
			pl->prefix_rank = (int)v;
			if (i < n && p[i] == ' ')
				i++;
			return i;
		}
		/* Lightning [rank: N] */
		if (starts(p, n, "[rank: ") && (d = number(p + 7, n - 7, 7, &v)) != 0 &&
		    starts(p + 7 + d, n - 7 - d, "] ")) {
			pl->prefix_rank = (int)v;
			return 7 + d + 2;
		}
		/* torchrun --tee [roleN]: (local rank) */
		for (i = 1; i < n && i < 64 && (isalpha_(p[i]) || p[i] == '_'); i++)
			;
		if (i > 1 && (d = number(p + i, n - i, 6, &v)) != 0 &&
		    starts(p + i + d, n - i - d, "]:")) {
			pl->tee_local = (int)v;
			return i + d + 2;
		}
		/* TensorRT-LLM's logger: "[TRT-LLM] [RANK N] [E] " (N: the
		 * MPI world rank), or without the rank */
		if (i == 4 && starts(p, n, "[TRT-LLM] ")) {
			i = 10;
			if (starts(p + i, n - i, "[RANK ") && (d = number(p + i + 6, n - i - 6, 7,
			    &v)) != 0 && starts(p + i + 6 + d, n - i - 6 - d, "] ")) {
				pl->prefix_rank = (int)v;
				i += 6 + d + 2;
			}
			if (i + 4 <= n && p[i] == '[' && issev(p[i + 1]) && p[i + 2] == ']' &&
			    p[i + 3] == ' ') {
				pl->sev = p[i + 1];
				i += 4;
			}
			return i;
		}
		if (i > 1 && pl->host == NULL)
			return bracket_host(p, n, pl);
		return 0;
	}
	/* Ray: "(Actor pid=123, ip=10.0.0.1) " or "(w, rank=1, pid=2, ip=...) " */
	if (p[0] == '(') {
		const char *e = memchr(p, ')', n < 256 ? n : 256);
		const char *q;

		if (e == NULL || e + 1 >= p + n || (e[1] != ' ' && e[1] != 0x1b))
			return 0;
		for (q = p; q + 4 < e; q++)
			if (memcmp(q, "pid=", 4) == 0 && (q == p + 1 || q[-1] == ' '))
				break;
		if (q + 4 >= e) {
			/* Ray's own daemons' lines: "(raylet, ip=10.0.1.36) ",
			 * "(gcs_server) " */
			size_t wl = starts(p + 1, (size_t)(e - p - 1), "raylet") ? 6 :
			    starts(p + 1, (size_t)(e - p - 1), "gcs_server") ? 10 : 0;

			if (wl == 0 || (p + 1 + wl != e && p[1 + wl] != ','))
				return 0;
			return (size_t)(e - p) + (e[1] == ' ' ? 2 : 1);
		}
		if (number(q + 4, (size_t)(e - q - 4), 10, &w) != 0)
			pl->pid = w;
		pl->group = worker_tp(p + 1, (size_t)(q - p - 1));
		for (q = p; q + 5 < e; q++)
			if (memcmp(q, "rank=", 5) == 0 && (q[-1] == ' ' || q[-1] == '(' ||
			    q[-1] == ',') && number(q + 5, (size_t)(e - q - 5), 7, &v) != 0) {
				pl->label = (int)v;
				break;
			}
		return (size_t)(e - p) + (e[1] == ' ' ? 2 : 1);
	}
	/* a parent that relays its child's streams ("accelerate test":
	 * "stderr: [rank0]: ...") */
	if (n > 8 && (starts(p, n, "stderr: ") || starts(p, n, "stdout: ")))
		return 8;
	if (n > 20 && p[8] == ' ' && (i = determined_tag(p, n, pl)) != 0)
		return i;
	if (isdig(p[0]) && pl->host == NULL && (i = xla_worker(p, n, pl)) != 0)
		return i;
	if (pl->label < 0 && pl->host == NULL && (i = torchx_replica(p, n, pl)) != 0)
		return i;
	if (pl->host == NULL && pl->no_host != 1 && (i = host_prefix(p, n, pl)) != 0)
		return i;
	return 0;
}

/* Can peel_one find a prefix at p? Its first byte says no for most
 * lines' messages (a word of letters, once a host is out of the
 * question), which then cost no call. */
static inline int
may_peel(const char *p, size_t n, const struct peeled *pl)
{
	unsigned char c;

	if (n == 0)
		return 0;
	c = (unsigned char)p[0];
	/* a date, "2024-12-18 " or "[2024-12-18", as most lines start: no
	 * prefix (peel_one reads 4 digits and a '-', which none has) */
	if (n > 10 && (c == '[' ? isdig(p[1]) && isdig(p[2]) && isdig(p[3]) && isdig(p[4]) &&
	    p[5] == '-' : isdig((char)c) && isdig(p[1]) && isdig(p[2]) && isdig(p[3]) &&
	    p[4] == '-' && p[7] == '-' && p[10] == ' '))
		return 0;
	if (c == 0x1b || c == 'P' || c == ' ' || c == '[' || c == '(' || isdig((char)c))
		return 1;
	/* host_prefix: a host character, not - or . */
	return pl->host == NULL && pl->no_host != 1 && hostclass[c] != 0 && hostclass[c] != 3;
}

/* --- headers ------------------------------------------------------------ */

struct header {
	struct civil	c;
	int		has_time;
	int		epoch;		/* c holds nothing; ep is an epoch */
	long long	ep;
	int32_t		ep_nsec;
	char		sev;
	int		group_rank;	/* sglang's "[... TP3]", -1 */
};

static size_t
level_word(const char *p, size_t n)
{
	static const struct {
		const char	*w;
		size_t		 l;
	} words[] = { { "DEBUG", 5 }, { "INFO", 4 }, { "WARNING", 7 }, { "WARN", 4 },
	    { "ERROR", 5 }, { "CRITICAL", 8 }, { "FATAL", 5 } };
	size_t i;

	if (n == 0 || !isupper_(p[0]))
		return 0;
	for (i = 0; i < sizeof words / sizeof *words; i++) {
		size_t l = words[i].l, k;

		if (n <= l || p[0] != words[i].w[0])
			continue;
		for (k = 1; k < l && p[k] == words[i].w[k]; k++)
			;
		if (k == l && !isupper_(p[l]))
			return l;
	}
	return 0;
}

/* A level word's first letter as line.h's sev: CRITICAL is fatal, DEBUG
 * verbose. */
static char
level_sev(char c)
{
	return c == 'C' ? 'F' : c == 'D' ? 'V' : c;
}

/* A level word and the ' ' or ':' (and ' ') after it: its length. */
static size_t
skip_level_word(const char *p, size_t n)
{
	size_t l = level_word(p, n);

	if (l == 0 || (p[l] != ' ' && p[l] != ':'))
		return 0;
	return l + 1 + (p[l] == ':' && n > l + 1 && p[l + 1] == ' ');
}

static size_t
skip_separators(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '-' || p[i] == '|') && i < 8)
		i++;
	return i;
}

/* c10 "[E1218 20:27:21.426415540 File.cpp:629] " or "[E File.cpp:474] " */
static size_t
header_c10(const char *p, size_t n, struct header *h)
{
	size_t i = 2, d;
	long mmdd;
	const char *e;

	if (n < 8 || p[0] != '[' || !issev(p[1]))
		return 0;
	if (isdig(p[2])) {
		if ((d = number(p + 2, n - 2, 4, &mmdd)) < 3 || 2 + d >= n ||
		    p[2 + d] != ' ')
			return 0;
		i = 2 + d + 1;
		if ((d = stamp_parse_hms(p + i, n - i, &h->c)) == 0)
			return 0;
		h->c.mon = (int)(mmdd / 100);
		h->c.mday = (int)(mmdd % 100);
		h->c.year = 0;
		/* The 9-digit fraction is CLOCK_MONOTONIC, not wall time. */
		h->c.has_frac = 0;
		h->c.nsec = 0;
		h->has_time = 1;
		i += d;
	}
	if (i >= n || p[i] != ' ')
		return 0;
	e = memchr(p + i, ']', n - i < 200 ? n - i : 200);
	if (e == NULL || e + 1 >= p + n || e[1] != ' ' || memchr(p + i + 1, ' ',
	    (size_t)(e - p - i - 1)) != NULL || memchr(p + i, ':', (size_t)(e - p - i)) == NULL)
		return 0;
	h->sev = p[1];
	return (size_t)(e - p) + 2;
}

/* glog / torch._logging "E0506 12:00:00.123456 12345 file.py:528] " */
static size_t
header_glog(const char *p, size_t n, struct header *h)
{
	size_t i, d;
	long mmdd;
	const char *e;

	if (n < 24 || !issev(p[0]) || number(p + 1, n - 1, 4, &mmdd) != 4 ||
	    p[5] != ' ')
		return 0;
	if ((d = stamp_parse_hms(p + 6, n - 6, &h->c)) == 0)
		return 0;
	i = 6 + d;
	while (i < n && p[i] == ' ')
		i++;
	/* a thread id: C++ glog's is the kernel's, Python's (torch.distributed
	 * .elastic before 2.4) threading.get_ident(), of up to 20 digits */
	for (d = 0; i + d < n && d < 20 && isdig(p[i + d]); d++)
		;
	if (d == 0 || i + d >= n || p[i + d] != ' ')
		return 0;
	i += d + 1;
	e = memchr(p + i, ']', n - i < 300 ? n - i : 300);
	if (e == NULL || e + 1 >= p + n || e[1] != ' ' ||
	    memchr(p + i, ' ', (size_t)(e - p - i)) != NULL)
		return 0;
	h->c.mon = (int)(mmdd / 100);
	h->c.mday = (int)(mmdd % 100);
	h->c.year = 0;
	h->has_time = 1;
	h->sev = p[0];
	return (size_t)(e - p) + 2;
}

/* A month-first date and time, "02/11/2024 22:36:19" (sep ' ') or
 * TensorRT-LLM's "11/17/2025-14:46:33" (sep '-'): its length, or 0. */
static size_t
us_date(const char *p, size_t n, char sep, struct civil *c)
{
	long mon, day, year;
	size_t d;

	if (n < 19 || number(p, 2, 2, &mon) != 2 || p[2] != '/' ||
	    number(p + 3, 2, 2, &day) != 2 || p[5] != '/' || number(p + 6, 4, 4, &year) != 4 ||
	    p[10] != sep || mon < 1 || mon > 12 || day < 1 || day > 31 ||
	    (d = stamp_parse_hms(p + 11, n - 11, c)) == 0)
		return 0;
	c->year = (int)year;
	c->mon = (int)mon;
	c->mday = (int)day;
	return 11 + d;
}

/* "[2024-05-01 12:00:00,123] " then optional "[INFO] ", "[file:1:fn] ",
 * "logger.name: [LEVEL] " (DeepSpeed, old torchrun, NCCL 2.26+, Megatron). */
static size_t
header_bracket_date(const char *p, size_t n, struct header *h)
{
	size_t i = 0, d;
	const char *e;

	if (i < n && p[i] == ' ')
		i++;
	if (i >= n || p[i] != '[')
		return 0;
	if (((d = stamp_parse_iso(p + i + 1, n - i - 1, &h->c)) == 0 &&
	    (d = us_date(p + i + 1, n - i - 1, '-', &h->c)) == 0) || i + 1 + d >= n)
		return 0;
	if (p[i + 1 + d] == ' ') {
		/* sglang: "[2024-11-30 10:00:01 DP1 TP3] ", its scheduler's
		 * place on each parallel axis the run has (DP, PP, ATTN_CP,
		 * MOE_DP, TP, EP, in the release's order). The TP rank is a
		 * group's rank, taken as one where no other axis but DP and
		 * EP (which follows TP) puts the process apart: "PP1 TP3" is
		 * rank 3 of the second stage, no rank of its own. */
		size_t j = i + 1 + d + 1, a, k;
		long v, tp = -1;
		int apart = 0, axes = 0;

		/* Ray's C++ logger (the raylet, the GCS, a core worker):
		 * "[2025-11-20 08:14:04,892 E 18591 18625] ", level, pid and
		 * thread */
		if (j + 2 < n && issev(p[j]) && p[j + 1] == ' ' &&
		    (k = number(p + j + 2, n - j - 2, 9, &v)) != 0 && j + 2 + k < n &&
		    p[j + 2 + k] == ' ' && (a = number(p + j + 3 + k, n - j - 3 - k, 9, &v)) != 0 &&
		    j + 3 + k + a < n && p[j + 3 + k + a] == ']') {
			h->sev = p[j];
			h->has_time = 1;
			for (i = j + 3 + k + a + 1; i < n && p[i] == ' '; i++)
				;
			return i;
		}
		for (;;) {
			for (a = j; j < n && j < a + 8 && (isupper_(p[j]) || p[j] == '_'); j++)
				;
			if (j == a || (k = number(p + j, n - j, 5, &v)) == 0 || j + k >= n)
				return 0;
			if (j - a == 2 && p[a + 1] == 'P' && p[a] == 'T')
				tp = v;
			else if (v != 0 && !(j - a == 2 && p[a + 1] == 'P' &&
			    (p[a] == 'D' || p[a] == 'E')))
				apart = 1;
			j += k;
			if (p[j] == ']')
				break;
			if (p[j] != ' ' || ++axes == 6)
				return 0;
			j++;
		}
		if (tp >= 0 && !apart)
			h->group_rank = (int)tp;
		d = j - i - 1;
	} else if (p[i + 1 + d] != ']')
		return 0;
	h->has_time = 1;
	i += 1 + d + 1;
	/* one space parts the time from the line; more are the line's own
	 * indentation, kept (a platform's time before each line of a
	 * traceback: "[2024-07-08 15:29:47]     self._fd = ...") */
	for (e = p + i; e < p + n && *e == ' '; e++)
		;
	i = (size_t)(e - p) > i + 1 && e < p + n && *e != '[' ? i + 1 : (size_t)(e - p);
	/* [LEVEL] */
	if (i < n && p[i] == '[') {
		size_t j = i + 1;

		while (j < n && isupper_(p[j]))
			j++;
		if (j > i + 1 && j + 1 < n && p[j] == ']' && p[j + 1] == ' ') {
			h->sev = level_sev(p[i + 1]);
			i = j + 2;
		}
	}
	/* [file.py:12:func] */
	if (i < n && p[i] == '[' && (e = memchr(p + i, ']', n - i < 200 ? n - i : 200)) != NULL &&
	    e + 1 < p + n && e[1] == ' ' && memchr(p + i, ':', (size_t)(e - p - i)) != NULL &&
	    memchr(p + i, ' ', (size_t)(e - p - i)) == NULL)
		i = (size_t)(e - p) + 2;
	/* logger.name: [LEVEL] */
	else if (i < n && (isalpha_(p[i]) || p[i] == '_')) {
		size_t j = i;

		while (j < n && (isalpha_(p[j]) || isdig(p[j]) || p[j] == '.' || p[j] == '_'))
			j++;
		if (j + 3 < n && p[j] == ':' && p[j + 1] == ' ' && p[j + 2] == '[') {
			size_t k = j + 3;

			while (k < n && isupper_(p[k]))
				k++;
			if (k > j + 3 && k + 1 < n && p[k] == ']' && p[k + 1] == ' ') {
				h->sev = level_sev(p[j + 3]);
				i = k + 2;
			}
		}
	}
	return i;
}

/* vLLM: "ERROR 07-23 19:34:50 [multiproc_executor.py:487] " (and .mmm),
 * and older releases' "ERROR 04-07 00:57:46 ray_utils.py:45] " */
static size_t
header_vllm(const char *p, size_t n, struct header *h)
{
	static const char *const levels[] = { "DEBUG ", "INFO ", "WARNING ", "ERROR ",
	    "CRITICAL " };
	size_t i = 0, k, d;
	long mon, day;
	const char *e;

	for (k = 0; k < sizeof levels / sizeof *levels; k++)
		if (starts(p, n, levels[k])) {
			i = strlen(levels[k]);
			break;
		}
	if (i == 0 || i + 15 > n || number(p + i, 2, 2, &mon) != 2 || p[i + 2] != '-' ||
	    number(p + i + 3, 2, 2, &day) != 2 || p[i + 5] != ' ')
		return 0;
	if ((d = stamp_parse_hms(p + i + 6, n - i - 6, &h->c)) == 0)
		return 0;
	i += 6 + d;
	/* older releases' file has no opening bracket: "llm_engine.py:70] ";
	 * a blank line of a logged traceback ends at the bracket */
	if (i + 2 >= n || p[i] != ' ' ||
	    (e = memchr(p + i + 1, ']', n - i - 1 < 120 ? n - i - 1 : 120)) == NULL ||
	    (e + 1 < p + n && e[1] != ' ') || memchr(p + i + 1, ' ', (size_t)(e - p - i - 1)) ||
	    (p[i + 1] != '[' && memchr(p + i + 1, ':', (size_t)(e - p - i - 1)) == NULL))
		return 0;
	h->c.mon = (int)mon;
	h->c.mday = (int)day;
	h->c.year = 0;
	h->has_time = 1;
	h->sev = level_sev(p[0]);
	return e + 1 == p + n ? n : (size_t)(e - p) + 2;
}

/* The logging setup of transformers' and accelerate's example scripts
 * (and many trainers copied from them): "02/11/2024 22:36:19 - INFO -
 * llmtuner.data.template - ", month first. */
static size_t
header_us_date(const char *p, size_t n, struct header *h)
{
	size_t i, k;
	const char *q;

	if (n < 20 || (i = us_date(p, n, ' ', &h->c)) == 0)
		return 0;
	h->has_time = 1;
	if (starts(p + i, n - i, " - ")) {
		for (k = i + 3; k < n && isupper_(p[k]); k++)
			;
		if (k > i + 3 && starts(p + k, n - k, " - ") &&
		    (q = memmem(p + k + 3, n - k - 3 < 160 ? n - k - 3 : 160, " - ", 3)) != NULL &&
		    memchr(p + k + 3, ' ', (size_t)(q - p - k - 3)) == NULL) {
			h->sev = level_sev(p[i + 3]);
			return (size_t)(q - p) + 3;
		}
	}
	return i < n && p[i] == ' ' ? i + 1 : i == n ? i : 0;
}

/* "2024-05-01 12:00:00,123 " (Python logging), ISO 8601 */
static size_t
header_iso(const char *p, size_t n, struct header *h)
{
	size_t d, i;

	if ((d = stamp_parse_iso(p, n, &h->c)) == 0)
		return 0;
	/* (a collector's "2021-03-10T13:22:37.482Z: " ends it with a colon) */
	if (d < n && p[d] != ' ' && p[d] != '\t' && p[d] != ']' && p[d] != '|' &&
	    !(p[d] == ':' && d + 1 < n && p[d + 1] == ' '))
		return 0;
	h->has_time = 1;
	i = d;
	if (i < n && (p[i] == ']' || p[i] == ':'))
		i++;
	i += skip_separators(p + i, n - i);
	d = skip_level_word(p + i, n - i);
	/* the logger's name before the level: Python logging's
	 * "%(asctime)s - %(name)s - %(levelname)s - " */
	if (d == 0 && i > 1 && p[i - 1] == ' ' && p[i - 2] == '-') {
		size_t j = i;

		while (j < n && j < i + 64 && (isalpha_(p[j]) || isdig(p[j]) || p[j] == '.' ||
		    p[j] == '_'))
			j++;
		if (j > i && starts(p + j, n - j, " - ") && (d = skip_level_word(p + j + 3,
		    n - j - 3)) != 0)
			i = j + 3;
	}
	if (d) {
		h->sev = level_sev(p[i]);
		i += d;
		i += skip_separators(p + i, n - i);
	}
	return i;
}

/* The AWS Neuron runtime's "2025-Jun-28 22:19:15.499043  8649:8757  ERROR
 * NRT:nrt_load  ...": a month's name in an ISO-like date, the pid and
 * thread, then (not always) the level. */
static int	month_of(const char *, size_t);

static size_t
header_neuron(const char *p, size_t n, struct header *h, struct line *out)
{
	size_t i, d, d2;
	long year, day, pid, tid;

	if (n < 24 || p[4] != '-' || p[8] != '-' || number(p, 4, 4, &year) != 4 ||
	    (h->c.mon = month_of(p + 5, n - 5)) == 0 || number(p + 9, 2, 2, &day) != 2 ||
	    p[11] != ' ')
		return 0;
	h->c.year = (int)year;
	h->c.mday = (int)day;
	if ((d = stamp_parse_hms(p + 12, n - 12, &h->c)) == 0 || 12 + d >= n || p[12 + d] != ' ')
		return 0;
	h->has_time = 1;
	i = 12 + d;
	while (i < n && p[i] == ' ')
		i++;
	if ((d = number(p + i, n - i, 10, &pid)) != 0 && i + d < n && p[i + d] == ':' &&
	    (d2 = number(p + i + d + 1, n - i - d - 1, 10, &tid)) != 0) {
		out->pid = pid;
		i += d + 1 + d2;
		while (i < n && p[i] == ' ')
			i++;
	}
	if ((d = skip_level_word(p + i, n - i)) != 0) {
		h->sev = level_sev(p[i]);
		i += d;
		while (i < n && p[i] == ' ')
			i++;
	}
	return i;
}

/* Ascend's date and time, "2025-07-23-03:47:57" and its fraction: none,
 * ".070" (milliseconds), or ".070.463" (and microseconds); oneCCL's,
 * "2024:08:21-10:24:26", with sep ':' between the date's numbers. Its
 * length, 0 when it is not one. */
static size_t
dash_date_time(const char *p, size_t n, char sep, struct civil *c)
{
	size_t d;
	long v;

	if (n < 19 || number(p, 4, 4, &v) != 4 || p[4] != sep)
		return 0;
	c->year = (int)v;
	if (number(p + 5, 2, 2, &v) != 2 || p[7] != sep || v < 1 || v > 12)
		return 0;
	c->mon = (int)v;
	if (number(p + 8, 2, 2, &v) != 2 || p[10] != '-' || v < 1 || v > 31)
		return 0;
	c->mday = (int)v;
	if ((d = stamp_parse_hms(p + 11, n - 11, c)) == 0)
		return 0;
	d += 11;
	if (d + 4 <= n && p[d] == '.' && c->has_frac && number(p + d + 1, 3, 3, &v) == 3) {
		c->nsec += (int32_t)v * 1000;
		d += 4;
	}
	return d;
}

/* Ascend CANN's own log lines (HCCL, HCCP, RUNTIME, GE, ...): "[ERROR]
 * HCCL(2717288,python3):2025-07-23-03:47:57.070.463 " (the level, the
 * module, the pid and the process's name, which may be empty, then the
 * date, '-', the time, its milliseconds and microseconds). */
static size_t
header_cann(const char *p, size_t n, struct header *h, struct line *out)
{
	size_t i, l, d;
	long pid;

	if (!isupper_(p[2]) || (l = level_word(p + 1, n - 1)) == 0 || 1 + l >= n ||
	    p[1 + l] != ']' || 2 + l >= n || p[2 + l] != ' ')
		return 0;
	for (i = 3 + l; i < n && i < 3 + l + 16 && (isupper_(p[i]) || isdig(p[i]) ||
	    p[i] == '_'); i++)
		;
	if (i == 3 + l || i >= n || p[i] != '(' ||
	    (d = number(p + i + 1, n - i - 1, 10, &pid)) == 0 || i + 1 + d >= n ||
	    p[i + 1 + d] != ',')
		return 0;
	i += 2 + d;
	while (i < n && i < 3 + l + 96 && p[i] != ')')
		i++;
	if (i + 2 >= n || p[i] != ')' || p[i + 1] != ':' ||
	    (d = dash_date_time(p + i + 2, n - i - 2, '-', &h->c)) == 0)
		return 0;
	i += 2 + d;
	if (i >= n || p[i] != ' ')
		return 0;
	h->has_time = 1;
	h->sev = level_sev(p[1]);
	out->pid = pid;
	return i + 1;
}

/* oneCCL's (Intel's collective library, XPU and Gaudi's CPU side) lines:
 * "2024:08:21-10:24:26:(4456) |CCL_ERROR| atl_ofi.cpp:243 init: ..."
 * (ccl_logger::write_prefix: the date with colons, '-', the time, then
 * the id of the thread, which some builds pad with spaces or leave out).
 * The thread's id is no pid: it is not kept. The level stays in the
 * message, where msg_level reads it and signatures may name it. */
static size_t
header_oneccl(const char *p, size_t n, struct header *h)
{
	size_t i, d;
	long tid;

	if ((i = dash_date_time(p, n, ':', &h->c)) == 0)
		return 0;
	if (i + 2 < n && p[i] == ':' && p[i + 1] == '(') {
		for (i += 2; i < n && p[i] == ' '; i++)
			;
		if ((d = number(p + i, n - i, 10, &tid)) == 0 || i + d >= n || p[i + d] != ')')
			return 0;
		i += d + 1;
	}
	if (i + 1 >= n || p[i] != ' ' || !starts(p + i + 1, n - i - 1, "|CCL_"))
		return 0;
	h->has_time = 1;
	return i + 1;
}

/* torch_npu's head of its own errors (NPUException.cpp's
 * formatErrorCode), at the message's start, after any other header:
 * "[rank1]: [ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1)
 * ERR01100 OPS call acl api failed.", in later releases with a fraction
 * and "). ERR". Its level, time, pid, and the process's rank
 * (OptionsManager::GetRankId(): $RANK, -1 when unset). Returns its
 * length, 0 when it is not one; *rank the rank, -1. */
static size_t
npu_error_head(const char *p, size_t n, struct header *h, struct line *out, long *rank)
{
	size_t i, d;
	long pid;
	struct civil c;

	*rank = -1;
	if (n < 48 || !starts(p, n, "[ERROR] "))
		return 0;
	memset(&c, 0, sizeof c);
	if ((d = dash_date_time(p + 8, n - 8, '-', &c)) == 0)
		return 0;
	i = 8 + d;
	if (i + 6 >= n || !starts(p + i, n - i, " (PID:"))
		return 0;
	i += 6;
	if ((d = number(p + i, n - i, 10, &pid)) == 0 || !starts(p + i + d, n - i - d, ", Device:"))
		return 0;
	i += d + 9;
	while (i < n && (isdig(p[i]) || p[i] == '-'))
		i++;
	if (!starts(p + i, n - i, ", RankID:"))
		return 0;
	i += 9;
	if (i < n && p[i] == '-')	/* "RankID:-1" */
		for (i++; i < n && isdig(p[i]); i++)
			;
	else
		i += number(p + i, n - i, 9, rank);
	if (i + 1 >= n || p[i] != ')')
		return 0;
	i += 1 + (p[i + 1] == '.');	/* "). ERR..." (later releases) */
	if (i >= n || p[i] != ' ')
		return 0;
	if (!h->has_time) {
		h->c = c;
		h->has_time = 1;
	}
	if (h->sev == 0)
		h->sev = 'E';
	out->pid = pid;
	return i + 1;
}

/* "[NeMo I 2024-07-31 19:59:50 utils:47] " */
static size_t
header_nemo(const char *p, size_t n, struct header *h)
{
	size_t d;
	const char *e;

	if (!starts(p, n, "[NeMo ") || n < 30 || p[7] != ' ')
		return 0;
	if ((d = stamp_parse_iso(p + 8, n - 8, &h->c)) == 0)
		return 0;
	e = memchr(p + 8 + d, ']', n - 8 - d);
	if (e == NULL)
		return 0;
	h->has_time = 1;
	h->sev = p[6];
	return (size_t)(e - p) + 1 + (e + 1 < p + n && e[1] == ' ');
}

static int
month_of(const char *p, size_t n)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int m;

	if (n < 3)
		return 0;
	for (m = 0; m < 12; m++)
		if (memcmp(p, names + 3 * m, 3) == 0)
			return m + 1;
	return 0;
}

/* "Jun 18 12:03:01" or "Jun  8 12:03:01" (syslog, ctime); returns length. */
static size_t
month_day_time(const char *p, size_t n, struct civil *c)
{
	size_t i = 4, d;
	long day;

	if (n < 15 || (c->mon = month_of(p, n)) == 0 || p[3] != ' ')
		return 0;
	if (p[i] == ' ')
		i++;
	if ((d = number(p + i, n - i, 2, &day)) == 0 || i + d >= n || p[i + d] != ' ')
		return 0;
	i += d + 1;
	c->mday = (int)day;
	if ((d = stamp_parse_hms(p + i, n - i, c)) == 0)
		return 0;
	return i + d;
}

/* Kibana's (Elastic's) default "May 16, 2026 @ 20:46:57.892" and the
 * blanks or tab a copied table row puts after it. */
static size_t
header_kibana(const char *p, size_t n, struct header *h)
{
	size_t i = 4, d;
	long day, year;

	if (n < 26 || (h->c.mon = month_of(p, n)) == 0 || p[3] != ' ' ||
	    (d = number(p + i, n - i, 2, &day)) == 0 || !starts(p + i + d, n - i - d, ", "))
		return 0;
	i += d + 2;
	if (number(p + i, n - i, 4, &year) != 4 || !starts(p + i + 4, n - i - 4, " @ ") ||
	    (d = stamp_parse_hms(p + i + 7, n - i - 7, &h->c)) == 0)
		return 0;
	i += 7 + d;
	if (i < n && p[i] != ' ' && p[i] != '\t')
		return 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	h->c.year = (int)year;
	h->c.mday = (int)day;
	h->has_time = 1;
	return i;
}

/* dmesg -T "[Tue Jun 18 12:03:01 2024] " */
static size_t
header_dmesg_t(const char *p, size_t n, struct header *h)
{
	size_t d;
	long year;

	if (n < 27 || p[0] != '[' || p[4] != ' ')
		return 0;
	if ((d = month_day_time(p + 5, n - 5, &h->c)) == 0 || 5 + d + 6 > n ||
	    p[5 + d] != ' ' || number(p + 6 + d, n - 6 - d, 4, &year) != 4 ||
	    p[10 + d] != ']')
		return 0;
	h->c.year = (int)year;
	h->has_time = 1;
	return 11 + d + (11 + d < n && p[11 + d] == ' ');
}

/* ctime, as Open MPI's --timestamp-output puts it before its tag, with
 * nothing between: "Fri Aug 11 12:31:45 2023[1,0]<stdout>:" */
static size_t
header_ctime(const char *p, size_t n, struct header *h)
{
	size_t d;
	long year;

	if (n < 24 || p[3] != ' ' || !month_of(p + 4, n - 4))
		return 0;
	if ((d = month_day_time(p + 4, n - 4, &h->c)) == 0 || 4 + d + 5 > n ||
	    p[4 + d] != ' ' || number(p + 5 + d, n - 5 - d, 4, &year) != 4)
		return 0;
	h->c.year = (int)year;
	h->has_time = 1;
	return 9 + d + (9 + d < n && p[9 + d] == ' ');
}

/* syslog "Jun 18 12:03:01 host kernel: ": the host is kept. */
static size_t
header_syslog(const char *p, size_t n, struct header *h, struct line *out)
{
	size_t i, hs, he;
	const char *colon;

	if ((i = month_day_time(p, n, &h->c)) == 0 || i >= n || p[i] != ' ')
		return 0;
	h->c.year = 0;
	h->has_time = 1;
	hs = ++i;
	while (i < n && p[i] != ' ')
		i++;
	he = i;
	if (i >= n || he == hs)
		return hs;
	colon = memchr(p + i, ':', n - i < 64 ? n - i : 64);
	if (colon == NULL || colon + 1 >= p + n || colon[1] != ' ' ||
	    memchr(p + i + 1, ' ', (size_t)(colon - p - i - 1)) != NULL)
		return hs;
	out->host = p + hs;
	out->hostlen = he - hs;
	return (size_t)(colon - p) + 2;
}

/* dmesg "[ 1399.140318] ": seconds since boot, no wall clock. */
static size_t
header_dmesg(const char *p, size_t n)
{
	size_t i = 1;
	long v;
	size_t d;

	if (n < 10 || p[0] != '[')
		return 0;
	while (i < n && p[i] == ' ')
		i++;
	if ((d = number(p + i, n - i, 10, &v)) == 0 || i + d >= n || p[i + d] != '.')
		return 0;
	i += d + 1;
	if ((d = number(p + i, n - i, 9, &v)) < 6 || i + d + 1 >= n ||
	    p[i + d] != ']')
		return 0;
	return i + d + 1 + (p[i + d + 1] == ' ');
}

/* The level a message starts with, when no header gave one: Python
 * logging's default "ERROR:root:...", a tool's "FATAL: ...", "[ERROR] ...",
 * "[E] ...", and "%(name)s - %(levelname)s - " after its time ("trainer -
 * ERROR - ..."). The message keeps it. 0: none. */
static char
msg_level(const char *p, size_t n)
{
	size_t i = 0, l;

	if (p[0] == '[') {
		if (n > 4 && issev(p[1]) && p[2] == ']' && p[3] == ' ')
			return p[1];
		if ((l = level_word(p + 1, n - 1)) != 0 && l + 2 < n && p[l + 1] == ']' &&
		    (p[l + 2] == ' ' || p[l + 2] == '['))
			return level_sev(p[1]);
		return 0;
	}
	/* oneCCL's "|CCL_ERROR| " */
	if (p[0] == '|')
		return starts(p, n, "|CCL_") && (l = level_word(p + 5, n - 5)) != 0 &&
		    p[5 + l] == '|' ? level_sev(p[5]) : 0;
	if (!isupper_(p[0])) {
		unsigned seen;

		/* a tool's own "prog: error: " (Slurm's srun: and slurmstepd:,
		 * argparse's "train.py: error: ") */
		i = host_span(p, n, 40, &seen);
		if (i > 0 && (starts(p + i, n - i, ": error: ") || starts(p + i, n - i, ": fatal: ")))
			return p[i + 2] == 'e' ? 'E' : 'F';
		i = 0;
		/* "name - " first */
		while (i < n && i < 64 && p[i] != ' ')
			i++;
		if (i + 4 >= n || p[i + 1] != '-' || p[i + 2] != ' ' || !isupper_(p[i + 3]))
			return 0;
		i += 3;
	}
	/* "ERROR:" or "ERROR - " (level_word leaves a byte after the word) */
	if ((l = level_word(p + i, n - i)) == 0 ||
	    (p[i + l] != ':' && !starts(p + i + l, n - i - l, " - ")))
		return 0;
	return level_sev(p[i]);
}

/* A logger's level and place after the time, OLMo's: "ERROR    [module:
 * 158, rank=3] " (the rank where the process has one; -1 in *rank when
 * it is not said). Its length, or 0. */
static size_t
record_head(const char *p, size_t n, char *sev, long *rank)
{
	size_t i, l, d;
	long v, r = -1;

	if ((l = level_word(p, n)) == 0 || l >= n || p[l] != ' ')
		return 0;
	for (i = l; i < n && i < 16 && p[i] == ' '; i++)
		;
	if (i >= n || p[i] != '[')
		return 0;
	i++;
	i += dotted_name(p + i, n - i, n - i);
	if (i >= n || p[i] != ':' || (d = number(p + i + 1, n - i - 1, 6, &v)) == 0)
		return 0;
	i += 1 + d;
	if (starts(p + i, n - i, ", rank=")) {
		if ((d = number(p + i + 7, n - i - 7, 7, &r)) == 0)
			return 0;
		i += 7 + d;
	}
	if (i + 1 >= n || p[i] != ']' || p[i + 1] != ' ')
		return 0;
	*sev = level_sev(p[0]);
	*rank = r;
	return i + 2;
}

/* UCX's log line (Open MPI's pml ucx, UCC, NIXL): "[1700000000.123456]
 * [host:pid:thread] " (the pid left-aligned in 5 columns: "[gpu-3:7356
 * :0]"): an epoch with microseconds, the host and the pid. */
static size_t
header_ucx(const char *p, size_t n, struct header *h, struct line *out)
{
	size_t i, d, hs, hl;
	long long sec = 0;
	long usec, pid;
	unsigned seen;

	for (i = 1; i < n && i < 13 && isdig(p[i]); i++)
		sec = sec * 10 + (p[i] - '0');
	if (i < 10 || i + 3 >= n || p[i] != '.' ||
	    (d = number(p + i + 1, n - i - 1, 6, &usec)) != 6)
		return 0;
	i += 1 + d;
	if (!starts(p + i, n - i, "] ["))
		return 0;
	hs = i + 3;
	if ((hl = host_span(p + hs, n - hs, 64, &seen)) == 0 || hs + hl >= n || p[hs + hl] != ':' ||
	    (i = ucx_ids(p, n, hs + hl, 8, 1, &pid)) == 0)
		return 0;
	h->epoch = 1;
	h->ep = sec;
	h->ep_nsec = (int32_t)usec * 1000;
	out->host = p + hs;
	out->hostlen = hl;
	out->pid = pid;
	for (i++; i < n && p[i] == ' '; i++)
		;
	return i;
}

/* The level in brackets, then the date: "[ERROR] 2022-08-21 20:11:07,312 "
 * (Python logging's "[%(levelname)s] %(asctime)s", torchelastic's agent in
 * PyTorch 1.9 and 1.10). */
static size_t
header_level_date(const char *p, size_t n, struct header *h)
{
	size_t l = level_word(p + 1, n - 1), d;

	if (l == 0 || l + 3 >= n || p[1 + l] != ']' || p[2 + l] != ' ' || !isdig(p[3 + l]) ||
	    (d = header_iso(p + 3 + l, n - 3 - l, h)) == 0)
		return 0;
	if (h->sev == 0)
		h->sev = level_sev(p[1]);
	return 3 + l + d;
}

static size_t
parse_header(const char *p, size_t n, struct header *h, struct line *out)
{
	size_t l;

	if (n == 0)
		return 0;
	if (p[0] >= 'A' && p[0] <= 'S' && n > 16 && p[3] == ' ' && month_of(p, n))
		return (l = header_kibana(p, n, h)) != 0 ? l : header_syslog(p, n, h, out);
	if (p[0] >= 'F' && p[0] <= 'W' && n > 24 && p[3] == ' ' && (l = header_ctime(p, n, h)) != 0)
		return l;
	if (p[0] == '[') {
		if (n > 2 && isupper_(p[1]) && ((l = header_dmesg_t(p, n, h)) != 0 ||
		    (l = header_cann(p, n, h, out)) != 0 || (l = header_level_date(p, n, h)) != 0))
			return l;
		if (n > 2 && issev(p[1]) && (isdig(p[2]) || p[2] == ' ') &&
		    (l = header_c10(p, n, h)) != 0)
			return l;
		if (n > 2 && isdig(p[1]) && (l = header_bracket_date(p, n, h)) != 0)
			return l;
		if (n > 30 && isdig(p[1]) && (l = header_ucx(p, n, h, out)) != 0)
			return l;
		if ((l = header_nemo(p, n, h)) != 0)
			return l;
		return header_dmesg(p, n);
	}
	if (p[0] == ' ' && n > 2 && p[1] == '[' && isdig(p[2]))
		return header_bracket_date(p, n, h);
	if (issev(p[0]) && n > 1 && isdig(p[1]))
		return header_glog(p, n, h);
	if (p[0] >= 'C' && p[0] <= 'W' && n > 20 && (l = header_vllm(p, n, h)) != 0)
		return l;
	/* the level first, then the date: "ERROR 2025-04-05T00:01:19.209Z "
	 * (a log store's export of severity and time), "INFO 2024-05-01
	 * 12:00:00,123 " (Python logging's "%(levelname)s %(asctime)s"), and
	 * after a logger's name in capitals: "LAUNCH ERROR 2022-11-21
	 * 02:35:54,385 " (paddle.distributed.launch) */
	if (isupper_(p[0])) {
		size_t w = 0, d;

		while (w < n && w < 16 && isupper_(p[w]))
			w++;
		w = w > 1 && w < n && p[w] == ' ' && level_word(p, n) == 0 ? w + 1 : 0;
		if ((l = skip_level_word(p + w, n - w)) != 0 && w + l + 10 < n &&
		    isdig(p[w + l]) && (d = header_iso(p + w + l, n - w - l, h)) != 0) {
			if (h->sev == 0)
				h->sev = level_sev(p[w]);
			return w + l + d;
		}
	}
	if (isdig(p[0]))
		return n > 10 && p[2] == '/' ? header_us_date(p, n, h) :
		    n > 24 && p[4] == ':' ? header_oneccl(p, n, h) :
		    n > 10 && p[4] == '-' && isupper_(p[5]) ? header_neuron(p, n, h, out) :
		    header_iso(p, n, h);
	return 0;
}

/* NCCL "host:pid:tid " and "[dev] " (the file:line NCCL LEVEL part stays). */
static size_t
peel_nccl(const char *p, size_t n, struct line *out)
{
	size_t i, h, d;
	long pid, dev;

	if ((i = nccl_head(p, n, &h, &pid)) == 0)
		return 0;
	if (i < n && p[i] == '[' && (d = number(p + i + 1, n - i - 1, 4, &dev)) != 0 &&
	    i + 1 + d + 1 < n && p[i + 1 + d] == ']' && p[i + 2 + d] == ' ')
		i += d + 3;
	/* Only a real NCCL line: "NCCL " must follow within the next field. */
	if (!starts(p + i, n - i, "NCCL ") &&
	    memmem(p + i, n - i < 160 ? n - i : 160, "NCCL ", 5) == NULL)
		return 0;
	out->host = p;
	out->hostlen = h;
	out->pid = pid;
	return i;
}

/* "[Rank 3] " or "[PG ID 0 PG GUID 0(default_pg) Rank 3] " at msg start,
 * or a little into it, after a wrapper's words ("what():  [PG 1 Rank 5] "). */
#define GROUP_RANK_WITHIN	160

static int
group_rank(const char *p, size_t n)
{
	const char *e, *q;
	long v;

	if (n >= 8 && p[0] != '[') {
		size_t w = n < GROUP_RANK_WITHIN ? n : GROUP_RANK_WITHIN;
		const char *a = memmem(p, w, " [Rank ", 7), *b = memmem(p, w, " [PG ", 5);

		if (a == NULL || (b != NULL && b < a))
			a = b;
		if (a == NULL)
			return -1;
		n -= (size_t)(a + 1 - p);
		p = a + 1;
	}
	if (n < 8 || p[0] != '[')
		return -1;
	if (!starts(p, n, "[Rank ") && !starts(p, n, "[PG "))
		return -1;
	e = memchr(p, ']', n < 120 ? n : 120);
	if (e == NULL)
		return -1;
	for (q = e - 1; q > p && isdig(*q); q--)
		;
	if (q + 1 == e || q - p < 5 || memcmp(q - 4, "Rank ", 5) != 0)
		return -1;
	if (number(q + 1, (size_t)(e - q - 1), 7, &v) == 0)
		return -1;
	return (int)v;
}

/* A line with no prefix that continues the record above it. */
static int
is_continuation(const char *p, size_t n)
{
	if (n == 0)
		return 0;
	if (p[0] == ' ' || p[0] == '\t')
		return 1;
	if (p[0] == '#' && n > 1 && isdig(p[1]))
		return 1;
	return starts(p, n, "frame #") || starts(p, n, "Exception raised from ") ||
	    starts(p, n, "terminate called after throwing") ||
	    starts(p, n, "Last error:") || starts(p, n, "Traceback (most recent") ||
	    (starts(p, n, "nccl") && n > 5 && isupper_(p[4])) ||
	    starts(p, n, "During handling of the above exception") ||
	    starts(p, n, "The above exception was the direct cause") ||
	    starts(p, n, "CUDA kernel errors might be") ||
	    starts(p, n, "For debugging consider passing") ||
	    starts(p, n, "Compile with `TORCH_USE_CUDA_DSA`");
}

/* An exception line "pkg.mod.SomeError: text" that ends a traceback. */
static int
is_exception_line(const char *p, size_t n)
{
	size_t i = dotted_name(p, n, 200);

	if (i < 5 || i >= n || p[i] != ':')
		return 0;
	return error_name(p, i) || (i >= 9 && memcmp(p + i - 9, "Interrupt", 9) == 0);
}

/* Is the line another rank's than the open record's (rank; -1: none)?
 * Only when it names a rank of its own, and a different one. */
static int
of_another_rank(const struct line *out, int rank)
{
	return out->rank >= 0 && out->rank_from != RANK_INHERIT && rank >= 0 &&
	    out->rank != rank;
}

/* A traceback's header, one of its frames (indented) or a blank line. */
static int
traceback_body(const char *p, size_t n)
{
	return n == 0 || p[0] == ' ' || p[0] == '\t' || starts(p, n, "Traceback (most recent");
}

/* Python's last word on an exception it could not raise (a __del__, a
 * finalizer, a callback: sys.unraisablehook): "Exception ignored in:
 * <function _MultiProcessingDataLoaderIter.__del__ ...>", then its
 * traceback, which ends in the exception line. The process went on: the
 * record's lines are flagged LINE_IGNORED. Another rank's lines may come
 * between; any other line of its own rank (or of none) ends it. */
static void
ignored_record(struct linestate *st, struct line *out)
{
	const char *p = out->msg;
	size_t n = out->msglen;

	if (n > 18 && (p[0] == 'E' || p[0] == '^') && (starts(p, n, "Exception ignored ") ||
	    starts(p, n, "^CException ignored "))) {
		st->ignoring = 1;
		st->ignored_rank = out->rank_from == RANK_INHERIT ? -1 : out->rank;
		out->flags |= LINE_IGNORED;
		return;
	}
	if (!st->ignoring || of_another_rank(out, st->ignored_rank))
		return;
	if (traceback_body(p, n) || starts(p, n, "During handling of the above") ||
	    starts(p, n, "The above exception")) {
		out->flags |= LINE_IGNORED;
		return;
	}
	if (is_exception_line(p, n))
		out->flags |= LINE_IGNORED;
	st->ignoring = 0;
}

/* A traceback chained to the exception above it ("The above exception
 * was the direct cause of the following exception:", "During handling
 * of the above exception, another exception occurred:"): its header and
 * frames are flagged LINE_CHAINED, up to its exception line (not
 * flagged: the exception it raised is read as it is). Another rank's
 * lines may come between; any other line of its own rank (or of none)
 * ends it. */
static void
chained_record(struct linestate *st, struct line *out)
{
	const char *p = out->msg;
	size_t n = out->msglen;

	if (n > 40 && (p[0] == 'T' || p[0] == 'D') &&
	    (starts(p, n, "The above exception was the direct cause") ||
	    starts(p, n, "During handling of the above exception"))) {
		st->chained = 1;
		st->chained_rank = out->rank_from == RANK_INHERIT ? -1 : out->rank;
		return;
	}
	if (!st->chained || of_another_rank(out, st->chained_rank))
		return;
	if (traceback_body(p, n)) {
		out->flags |= LINE_CHAINED;
		return;
	}
	st->chained = 0;
}

/* Python's faulthandler at a fatal signal: "Fatal Python error:
 * Segmentation fault", a blank line, then each thread's stack ("Current
 * thread 0x... (most recent call first):", "Thread 0x...", indented
 * "File ..., line N in FUNC" frames) and "Extension modules: ...". Its
 * frames say where the process was when it crashed, not where it waited:
 * the record's lines are flagged LINE_CRASH_DUMP. Any other line ends it
 * (faulthandler's dump on a timeout, "Timeout (0:30:00)!", is no crash). */
static void
crash_dump_record(struct linestate *st, struct line *out)
{
	const char *p = out->msg;
	size_t n = out->msglen;

	if (n > 19 && p[0] == 'F' && starts(p, n, "Fatal Python error: ")) {
		st->crash_dump = 1;
		return;
	}
	if (!st->crash_dump)
		return;
	if (n == 0 || p[0] == ' ' || p[0] == '\t' || starts(p, n, "Thread 0x") ||
	    starts(p, n, "Current thread 0x") || starts(p, n, "Extension modules: ") ||
	    starts(p, n, "<no Python frame>"))
		out->flags |= LINE_CRASH_DUMP;
	else
		st->crash_dump = 0;
}

/* The torchrun failure summary: attribute its fields to the rank each
 * "[idx]:" entry names, with the time the agent wrote down. */
static void
summary_line(struct linestate *st, struct line *out)
{
	const char *p = out->msg;
	size_t n = out->msglen, d;
	long v;
	struct civil c;

	if (n == 0)
		return;	/* a label with nothing after it ("4: ") */
	if (n >= 10 && (p[0] == '=' || p[0] == '-')) {
		size_t i = 0;

		while (i < n && p[i] == p[0])
			i++;
		if (i == n) {
			if (p[0] == '=' && st->sum_state && st->sum_root)
				st->sum_state = st->sum_root = 0;
			else if (p[0] == '=')
				st->sum_state = 1;
			st->sum_rank = -1;
			return;
		}
	}
	if (starts(p, n, "Root Cause (first observed failure):")) {
		st->sum_state = 1;
		st->sum_root = 1;
		st->sum_rank = -1;
		return;
	}
	if (starts(p, n, "Failures:")) {
		st->sum_state = 1;
		st->sum_root = 0;
		st->sum_rank = -1;
		return;
	}
	/* An excerpt that starts inside the summary: its rank line opens it. */
	if (!st->sum_state && starts(p, n, "  rank      : ") &&
	    memmem(p, n, "(local_rank: ", 13) != NULL) {
		st->sum_state = 1;
		st->sum_root = 0;
		st->sum_time.flags = 0;
	}
	if (!st->sum_state)
		return;
	if (p[0] == '[' && (d = number(p + 1, n - 1, 6, &v)) != 0 &&
	    starts(p + 1 + d, n - 1 - d, "]:") && 1 + d + 2 == n) {
		st->sum_rank = -1;
		st->sum_time.flags = 0;
		return;
	}
	if (starts(p, n, "  time      : ") &&
	    stamp_parse_torchrun(p + 14, n - 14, &c) != 0 &&
	    stamp_from_civil(&c, &st->sum_time) == 0) {
		st->sum_time.flags |= STAMP_REPORTED;
		/* a dated time: the year of the lines that have none */
		st->anchor = st->sum_time.sec;
		st->anchor_dated = 1;
		return;
	}
	if (starts(p, n, "  rank      : ") && number(p + 14, n - 14, 7, &v) != 0)
		st->sum_rank = (int)v;
	if (st->sum_rank >= 0 && starts(p, n, "  ")) {
		out->rank = st->sum_rank;
		out->rank_from = RANK_SUMMARY;
		out->flags |= LINE_SUMMARY | (st->sum_root ? LINE_ROOT_CAUSE : 0);
		if (st->sum_time.flags & STAMP_TIME)
			out->ts = st->sum_time;
	}
}

static void
set_rank(struct line *out, int rank, enum rank_from from)
{
	if (rank >= 0 && from > out->rank_from) {
		out->rank = rank;
		out->rank_from = from;
	}
}

/* "  nproc_per_node   : 8", a line of torchrun's launch configs. */
static void
nproc_line(struct linestate *st, const char *p, size_t n)
{
	size_t i = 0;
	int v = 0;

	while (i < n && p[i] == ' ')
		i++;
	if (!starts(p + i, n - i, "nproc_per_node"))
		return;
	for (i += 14; i < n && (p[i] == ' ' || p[i] == ':'); i++)
		;
	for (; i < n && isdig(p[i]) && v < 100000; i++)
		v = v * 10 + (p[i] - '0');
	if (i == n && v > 0)
		st->nproc = v;
}

/* Where another process's record starts inside this one's message, or 0:
 * "[rankN]:" or "[defaultN]:" followed by '[', ' ' or the end of the
 * line. Several processes writing to one terminal or file without a lock
 * splice records into each other ("...NumelIn=1, Num[rank2]:[E1204 ..."). */
static size_t
spliced_at(const char *p, size_t n)
{
	const char *q = p + 1, *e = p + n, *d, *s;

	/* (the shortest, "[rankN]:", is 8 bytes; "[defaultN]:" 11) */
	while ((q = memchr(q, '[', (size_t)(e - q))) != NULL && e - q >= 8) {
		d = q + 1;
		if (d[0] == 'r' && memcmp(d, "rank", 4) == 0)
			d += 4;
		else if (d[0] == 'd' && e - d >= 10 && memcmp(d, "default", 7) == 0)
			d += 7;
		else {
			q = d;
			continue;
		}
		for (s = d; d < e && d - s < 7 && isdig(*d); d++)
			;
		if (d > s && e - d >= 2 && d[0] == ']' && d[1] == ':' &&
		    (e - d == 2 || d[2] == '[' || d[2] == ' '))
			return (size_t)(q - p);
		q = d;
	}
	return 0;
}

void
line_parse(struct linestate *st, const char *raw, size_t len, struct line *out)
{
	struct peeled pl = peeled_none;
	struct header h;
	const char *p = raw;
	size_t n = len, l;
	int any_prefix = 0, from_pod = 0, group_header = 0, g;
	long npu_rank = -1, olmo_rank = -1;

	pl.hosts = st->hosts;
	out->raw = raw;
	out->rawlen = len;
	out->splice = 0;
	out->rank = -1;
	out->rank_from = RANK_NONE;
	out->local_rank = -1;
	out->sev = 0;
	out->flags = 0;
	out->ts.sec = 0;
	out->ts.nsec = 0;
	out->ts.flags = 0;
	out->host = NULL;
	out->hostlen = 0;
	out->pid = -1;
	out->label = -1;
	out->node = st->node;

	/* A progress bar rewritten with \r: the text after the last \r is
	 * what a terminal shows, and where a log line glued to it starts. */
	if (n > 0 && !st->cr_free && memchr(p, '\r', n) != NULL) {
		const char *q = p + n;

		while (q > p && q[-1] == '\r')
			q--;
		n = (size_t)(q - p);
		q = memrchr(p, '\r', n);
		if (q != NULL) {
			n -= (size_t)(q + 1 - p);
			p = q + 1;
			out->flags |= LINE_GLUED;
		}
	}

	/* A paste: Markdown quotes ("> ", "> > ") and code spans ("`"), and
	 * pytest's failure lines ("E       ") carry the log line after them. */
	while (n >= 2 && ((p[0] == '>' && (p[1] == ' ' || p[1] == '>')) || p[0] == '`')) {
		l = p[0] == '>' && p[1] == ' ' ? 2 : 1;
		p += l;
		n -= l;
	}
	while (n > 0 && p[n - 1] == '`')
		n--;
	if (n > 4 && p[0] == 'E' && p[1] == ' ' && p[2] == ' ' && p[3] == ' ') {
		for (l = 1; l < n && p[l] == ' '; l++)
			;
		p += l;
		n -= l;
	}
	/* Colour codes a terminal left in ("\033[36m(Worker pid=1) ..."),
	 * or their text once a paste dropped the escape ("[36m(Worker"). */
	while (n > 3 && (p[0] == 0x1b || (p[0] == '[' && isdig(p[1])))) {
		size_t j = p[0] == 0x1b ? 1 : 0;

		if (p[j] != '[')
			break;
		for (j++; j < n && j < 12 && (isdig(p[j]) || p[j] == ';'); j++)
			;
		if (j >= n || p[j] != 'm')
			break;
		p += j + 1;
		n -= j + 1;
	}
	/* A leading space before a prefix (" [rank3]:[E..."), or the spaces
	 * a progress bar left once a paste dropped its '\r' */
	if (n > 8 && p[0] == ' ') {
		size_t j = 1;
		struct peeled tmp = peeled_none;

		while (j < n && j < 256 && p[j] == ' ')
			j++;
		if (j < n && (p[j] == '[' || p[j] == '(') && peel_one(p + j, n - j, &tmp) != 0 &&
		    tmp.host == NULL) {
			p += j;
			n -= j;
		}
	}
	while (may_peel(p, n, &pl) && (l = peel_one(p, n, &pl)) != 0) {
		p += l;
		n -= l;
		any_prefix = 1;
	}
	if (pl.host != NULL && out->host == NULL) {
		out->host = pl.host;
		out->hostlen = pl.hostlen;
	}
	if (n > 12 && p[0] != '[') {
		/* A record glued after other output with no newline between:
		 * "...it/s][rank2]:[E1229 ..." (or torchrun --tee's
		 * "...it/s][default2]:[E ...") after a progress bar, or
		 * "...samples=2.5e+7][E ProcessGroupNCCL.cpp:458] [Rank 0] ..."
		 * after a logger's text. Look at each "][" (few per line). */
		const char *b = p;

		while ((b = memchr(b, ']', (size_t)(p + n - b))) != NULL && p + n - b > 8) {
			const char *q = ++b;
			size_t off = (size_t)(q - p);
			struct peeled tmp = peeled_none;
			struct header th;

			if (*q != '[')
				continue;
			if ((memcmp(q, "[rank", 5) == 0 || memcmp(q, "[default", 8) == 0) &&
			    (l = peel_one(q, n - off, &tmp)) != 0 &&
			    (tmp.prefix_rank >= 0 || tmp.tee_local >= 0) && l < n - off && q[l] == '[') {
				pl = tmp;
				p = q + l;
				n -= off + l;
				any_prefix = 1;
				out->flags |= LINE_GLUED;
				break;
			}
			memset(&th, 0, sizeof th);
			if (issev(q[1]) && header_c10(q, n - off, &th) != 0) {
				p = q;
				n -= off;
				out->flags |= LINE_GLUED;
				break;
			}
		}
	}

	/* Ray's de-duplication suffix. */
	if (n > 30 && p[n - 1] == ']' && memcmp(p + n - 17, "x across cluster]", 17) == 0) {
		const char *q = memrchr(p, '[', n);

		if (q != NULL && q > p && q[-1] == ' ' && starts(q, n - (size_t)(q - p), "[repeated "))
			n = (size_t)(q - 1 - p);
	}

	memset(&h, 0, sizeof h);
	h.group_rank = -1;
	if ((l = parse_header(p, n, &h, out)) != 0) {
		size_t l2;

		p += l;
		n -= l;
		/* Loggers nest: a collector's or Ray driver's time, then the
		 * worker's prefixes and header: "[2024-11-30 10:00:01] (Worker
		 * pid=12) [rank15]:[E1130 10:00:01.5 File.cpp:9] ...". NCCL
		 * 2.26+ puts its host:pid:tid after the date. A time alone
		 * may be a collector's, before its "pod-0 >> ". */
		pl.no_host = h.sev != 0 ? 1 : 2;
		for (l2 = 0; may_peel(p, n, &pl) && (l = peel_one(p, n, &pl)) != 0; l2 += l) {
			p += l;
			n -= l;
			any_prefix = 1;
		}
		if (l2 > 0) {
			struct header h2;

			memset(&h2, 0, sizeof h2);
			h2.group_rank = -1;
			if ((l = parse_header(p, n, &h2, out)) != 0) {
				p += l;
				n -= l;
				if (h.sev == 0)
					h.sev = h2.sev;
			}
		}
	}
	if (pl.host != NULL && out->host == NULL) {	/* a collector's, after its time */
		out->host = pl.host;
		out->hostlen = pl.hostlen;
	}
	if ((l = peel_nccl(p, n, out)) != 0) {
		p += l;
		n -= l;
	}
	/* abseil: "*** SIGSEGV received at time=1775734074 on cpu 19 ***" */
	if (!h.has_time && n > 20 && starts(p, n, "*** SIG")) {
		const char *q = memmem(p, n, "time=", 5);
		long long ep = 0;
		size_t i;

		if (q != NULL) {
			for (i = 5; q + i < p + n && isdig(q[i]) && i < 17; i++)
				ep = ep * 10 + (q[i] - '0');
			if (i > 13) {
				h.epoch = 1;
				h.ep = ep;
			}
		}
	}
	/* (the message keeps it: rank-exception's npu-error-rank reads it) */
	if (n > 48 && p[0] == '[')
		(void)npu_error_head(p, n, &h, out, &npu_rank);
	if (out->pid < 0 && pl.pid >= 0)
		out->pid = pl.pid;
	if (pl.label < 0 && (st->env_label >= 0 || st->pod_label >= 0)) {
		pl.label = st->env_label >= 0 ? st->env_label : st->pod_label;
		from_pod = 1;
	}
	if (out->host == NULL && st->env_host != NULL) {
		out->host = st->env_host;
		out->hostlen = st->env_hostlen;
	}
	out->label = pl.label;
	if ((pl.prefix_rank >= 0 || pl.tee_local >= 0) && n > 8 && (l = spliced_at(p, n)) != 0) {
		n = l;
		out->splice = (size_t)(p + n - raw);
		out->rawlen = out->splice;
	}
	/* OLMo's logger after its time: "CRITICAL [olmo.util:158, rank=0] "
	 * (the level padded to 8, the module and line, the process's rank) */
	if (h.has_time && h.sev == 0 && n > 12 && isupper_(p[0]) &&
	    (l = record_head(p, n, &h.sev, &olmo_rank)) != 0) {
		p += l;
		n -= l;
	}
	out->msg = p;
	out->msglen = n;
	out->sev = h.sev != 0 ? h.sev : pl.sev != 0 ? pl.sev : n > 6 ? msg_level(p, n) : 0;
	if (n == 0)
		out->flags |= LINE_BLANK;

	/* Time. */
	if (h.has_time) {
		if (h.c.year == 0) {
			if ((st->anchor_dated ? stamp_resolve_year(&h.c, st->anchor) :
			    stamp_resolve_year_not_after(&h.c, st->anchor)) == 0 &&
			    stamp_from_civil(&h.c, &out->ts) == 0)
				out->ts.flags |= STAMP_NOYEAR |
				    (st->anchor_dated ? 0 : STAMP_YEARGUESS);
		} else if (stamp_from_civil(&h.c, &out->ts) == 0) {
			st->anchor = out->ts.sec;
			st->anchor_dated = 1;
		}
	} else if (h.epoch)
		stamp_from_epoch(h.ep, h.ep_nsec, &out->ts);

	if (st->env_ts.flags & STAMP_TIME)
		out->ts = st->env_ts;

	/* Rank. */
	if (pl.prefix_rank >= 0)
		set_rank(out, pl.prefix_rank, RANK_PREFIX);
	else if (olmo_rank >= 0)	/* its own logger's word: a prefix's */
		set_rank(out, (int)olmo_rank, RANK_PREFIX);
	/* "1: [rank12]:": srun started a launcher (torchrun) a node, and its
	 * label is the node's; its other lines ("1: host:pid:tid [4] NCCL
	 * WARN ...") are of some rank of that node, not of rank 1 */
	if (pl.label >= 0 && pl.prefix_rank >= 0 && pl.prefix_rank != pl.label)
		st->label_node = 1;
	if (pl.tee_global >= 0)
		set_rank(out, pl.tee_global, RANK_PREFIX);
	/* How many processes a node runs, where the logs say it: torchrun's
	 * launch configs ("  nproc_per_node   : 8"), or a line with both its
	 * node's label and [defaultL]:[rankG] (G = label * nproc + L). Lines
	 * before it took the most local ranks seen so far. */
	if (pl.tee_local >= 0 && pl.label > 0 && pl.prefix_rank > pl.tee_local &&
	    (pl.prefix_rank - pl.tee_local) % pl.label == 0 &&
	    (pl.prefix_rank - pl.tee_local) / pl.label > pl.tee_local)
		st->nproc = (pl.prefix_rank - pl.tee_local) / pl.label;
	else if (n > 16 && (p[0] == ' ' || p[0] == 'n'))
		nproc_line(st, p, n);
	if (pl.tee_local >= 0) {
		out->local_rank = pl.tee_local;
		if (pl.tee_local > st->max_local)
			st->max_local = pl.tee_local;
		if (pl.label >= 0)	/* srun torchrun: label = node */
			set_rank(out, pl.label * (st->nproc ? st->nproc :
			    st->max_local + 1) + pl.tee_local, RANK_LOCAL);
		else if (st->node >= 0 && st->nproc > 0)
			set_rank(out, st->node * st->nproc + pl.tee_local, RANK_LOCAL);
		else if (pl.prefix_rank >= pl.tee_local)
			/* one node's: its global ranks are its local ranks
			 * plus one offset, the node's first rank */
			st->tee_offset = st->tee_offset == 0 ||
			    st->tee_offset == pl.prefix_rank - pl.tee_local + 1 ?
			    pl.prefix_rank - pl.tee_local + 1 : -1;
		else if (st->tee_offset > 0)
			set_rank(out, pl.tee_local + st->tee_offset - 1, RANK_LOCAL);
		else
			set_rank(out, pl.tee_local, RANK_LOCAL);
	} else if (pl.label >= 0 && st->nproc <= 1 && st->max_local <= 0 && !st->label_node)
		set_rank(out, pl.label, from_pod ? RANK_POD : RANK_LABEL);
	/* else the label is a node running several processes (torchrun's own
	 * lines, a process printing without its [defaultN]:): no rank */

	if (pl.prefix_rank < 0 && pl.tee_local < 0 && pl.tee_global < 0 &&
	    !h.has_time && out->host == NULL) {
		summary_line(st, out);
		if (!any_prefix && out->rank_from == RANK_NONE && st->record_rank >= 0 &&
		    (is_continuation(p, n) || is_exception_line(p, n) || n == 0)) {
			/* a process-group rank stays one on its record's
			 * lines: no stronger than the line that named it */
			if (st->record_from == RANK_GROUP) {
				set_rank(out, st->record_rank, RANK_GROUP);
				st->group_ranked++;
			} else
				set_rank(out, st->record_rank, RANK_INHERIT);
			out->flags |= LINE_CONTINUATION;
		}
	} else
		st->sum_state = 0;
	if (st->file_rank >= 0)
		set_rank(out, st->file_rank, RANK_FILE);
	if (out->rank < 0 && npu_rank >= 0)	/* torch_npu's RankID */
		set_rank(out, (int)npu_rank, RANK_NAMED);
	if (out->rank < 0 && (h.group_rank >= 0 || pl.group >= 0)) {
		static const char tb[] = "Traceback (most recent call last):";

		set_rank(out, h.group_rank >= 0 ? h.group_rank : pl.group, RANK_GROUP);
		st->group_ranked++;
		/* (a record the logger's header opens: a traceback printed
		 * with it, "... hit an exception: Traceback (most recent call
		 * last):"; its other lines' unprefixed neighbours are no
		 * record of theirs) */
		group_header = h.group_rank >= 0 && n >= sizeof tb - 1 &&
		    memcmp(p + n - (sizeof tb - 1), tb, sizeof tb - 1) == 0;
	}
	if (out->rank < 0 && (g = group_rank(p, n)) >= 0) {
		set_rank(out, g, RANK_GROUP);
		st->group_ranked++;
	}

	/* Records: a ranked line opens (or continues) one; an unrelated
	 * unranked line closes it. A process-group rank opens one too (a
	 * serving engine's "[time TP3] Scheduler hit an exception:
	 * Traceback ...", then the traceback's lines with no prefix), when
	 * the logger's header names it: a "[Rank 3]" in a message says
	 * nothing of the lines after it (another process's traceback). */
	if ((out->rank_from >= RANK_LOCAL && out->rank_from != RANK_SUMMARY &&
	    out->rank_from != RANK_NAMED) || group_header) {
		st->record_rank = out->rank;
		st->record_from = out->rank_from;
	} else if (out->rank_from == RANK_NONE && n > 0)
		st->record_rank = -1;

	ignored_record(st, out);
	chained_record(st, out);
	crash_dump_record(st, out);

	if (out->ts.flags & STAMP_TIME) {
		if (!(out->flags & LINE_SUMMARY))
			st->last = out->ts;
	} else if (st->last.flags & STAMP_TIME) {
		out->ts = st->last;
		out->ts.flags |= STAMP_INHERITED;
	}
}
