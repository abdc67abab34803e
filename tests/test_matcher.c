/* test_matcher.c: the prefilter never hides a match; limits stop runaway regexes. */
#include "config.h"

#include "testutil.h"

#include "matcher.h"

static void
frags_are(const char *pattern, const char *const *want, size_t n)
{
	char **v = NULL;
	size_t got = matcher_fragments(pattern, &v), i;

	assert_int_equal(got, n);
	for (i = 0; i < got; i++) {
		assert_string_equal(v[i], want[i]);
		free(v[i]);
	}
	free(v);
}

static void
test_fragment_extraction(void **state)
{
	static const char *const a[] = { "Watchdog caught collective operation timeout: Work" };
	static const char *const b[] = { " watchdog thread terminated with exception: " };
	static const char *const c[] = { "bucket_cap_bytes: " };
	static const char *const d[] = { "out of memory", "Failed to CUDA malloc " };
	static const char *const e[] = { "exitcode" };
	static const char *const f[] = { "NCCL version" };

	(void)state;
	frags_are("Watchdog caught collective operation timeout: Work[A-Za-z]*\\((?:SeqNum=(?<seq>\\d+), )?", a, 1);
	frags_are("(?:NCCL|Process group) watchdog thread terminated with exception: (?<what>.*)", b, 1);
	frags_are("^\\s*bucket_cap_bytes: (?<b>\\d+)\\s*$", c, 1);
	frags_are("(?i)out of memory|Failed to CUDA malloc \\d+", d, 2);
	frags_are("^\\s*exitcode\\s*: (?<e>-?\\d+)", e, 1);
	/* an optional character is not required: "versions?" gives "version" */
	frags_are("NCCL versions? (?<v>[\\d.]+)", f, 1);
	/* no literal of 4 bytes, an optional group, extended mode: none */
	frags_are("\\d+:\\d+", NULL, 0);
	frags_are("(?x) long literal here", NULL, 0);
	/* extended mode turned on later, or among other flags: none either */
	frags_are("abc(?ix) long literal here", NULL, 0);
	frags_are("(?s)(?x) long literal here", NULL, 0);
	/* a POSIX class inside a class is the class's, not a literal "]xyz..." */
	{
		static const char *const g[] = { "xyzabcdef" };

		frags_are("[[:digit:]]xyzabcdef", g, 1);
		frags_are("[^[:space:]]xyzabcdef", g, 1);
	}
	frags_are("abcdefg|x", NULL, 0);	/* one branch is too short */
	frags_are("", NULL, 0);
}

/* Build a rulebook from one YAML text. */
static struct rulebook *
book(const char *yaml)
{
	char *dir = tu_tmpdir();
	struct rulebook *rb = rulebook_new();
	struct notes ns;

	notes_init(&ns);
	TU_WRITE(dir, "t.yaml", yaml);
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 0);
	assert_int_equal(rulebook_finish(rb, &ns), 0);
	notes_release(&ns);
	tu_rmdir(dir);
	return rb;
}

static const char yaml[] =
    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
    "signatures:\n"
    "  - {id: a, role: initiating, pattern: 'CUDA out of memory\\. Tried to allocate (?<sz>\\S+)'}\n"
    "  - {id: b, role: collateral, pattern: 'Watchdog caught collective operation timeout'}\n"
    "  - {id: c, role: symptom, pattern: '(?i)loss[^\\n]{0,40}?\\bnan\\b'}\n"
    "  - {id: d, role: context, pattern: 'NCCL version (?<v>\\d+\\.\\d+\\.\\d+)'}\n"
    "  - {id: e, role: symptom, pattern: 'Error|Exception', prefilter: [Error, Exception]}\n"
    "  - {id: f, role: context, pattern: 'ab+c\\d{2,}xyz'}\n"
    "  - {id: g, role: symptom, pattern: 'loss[:=] ?(?:nan|inf)', prefilter: [loss],\n"
    "     requires: [':nan', ': nan', '=nan', '= nan', ':inf', ': inf', '=inf', '= inf']}\n";

struct count {
	int hits[8];
};

static void
on(void *arg, const struct signature *sig, const char *subject, const PCRE2_SIZE *ov)
{
	struct count *c = arg;

	(void)subject;
	(void)ov;
	c->hits[sig->index]++;
}

static const char *const words[] = { "CUDA out of memory. Tried to allocate 2 GiB",
    "cuda OUT of memory", "Watchdog caught collective operation timeout",
    "Watchdog caught", "loss = NaN", "LOSS: nan ", "loss nan", "NCCL version 2.18.3",
    "NCCL version x", "RuntimeError", "Exception", "abbbc12xyz", "frame #3: c10::Error::Error(x)",
    "Watchdog caught collective operation timeout: WorkNCCL", "ac12xyz", " ", "x",
    "\x1b[31m", "\xff\xfe", "[rank3]:", "[E1218 20:27:21.426415540 a.cpp:1] ",
    "loss:nan", "loss= inf", "loss:INF", "loss=0.1", "Loss: nan" };

static unsigned
rnd(unsigned *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return *seed >> 16;
}

/* A random line of words, whole or cut in half, into line; its length. */
static size_t
random_line(unsigned *seed, char *line, size_t size)
{
	size_t len = 0;
	int parts = 1 + (int)(rnd(seed) % 6), k;

	for (k = 0; k < parts; k++) {
		const char *w = words[rnd(seed) % (sizeof words / sizeof *words)];
		size_t wl = strlen(w), cut = rnd(seed) % 3 == 0 ? wl / 2 : wl;

		if (len + cut + 1 >= size)
			break;
		memcpy(line + len, w, cut);
		len += cut;
		line[len++] = (char)("  ;:x"[rnd(seed) % 5]);
	}
	return len;
}

/* The matcher found on line exactly what each regex finds. */
static void
agrees(const struct rulebook *rb, pcre2_match_data *md, const struct count *c,
    const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < rb->nsigs; i++) {
		int want = pcre2_match(rb->sigs[i]->re, (PCRE2_SPTR)line, len, 0, 0, md, NULL) >= 0;

		if (want != (c->hits[i] > 0))
			fail_msg("signature %s: prefilter says %d, regex says %d on '%.*s'",
			    rb->sigs[i]->id, c->hits[i], want, (int)len, line);
	}
}

static const char sample[] = "Watchdog caught collective operation "
    "timeout CUDA out of memory NCCL version loss = nan Exception "
    "Watchdog Watchdog memory memory of of of caught caught";

/* Flags set inline anywhere hold for the prefilter too: a line the
 * regex matches is never ruled out. */
static void
test_inline_flags_hide_nothing(void **state)
{
	static const char *const pat[] = { "ab(?i)timeoutsxyz", "(?s)(?i)badnessxyz",
	    "foo(?ix) bar baz qux", "[[:digit:]]xyzabcdef" };
	static const char *const line[] = { "abTIMEOUTSxYz", "BADNESSXYZ", "foobarbazqux",
	    "got 5xyzabcdef here" };
	size_t k;

	(void)state;
	for (k = 0; k < 4; k++) {
		char text[1024];
		struct rulebook *rb;
		struct matcher *m;
		struct count c = { { 0 } };

		snprintf(text, sizeof text,
		    "id: t\ntitle: T\ncategory: model\nseverity: low\nsummary: S\n"
		    "signatures:\n  - id: s\n    role: symptom\n    pattern: '%s'\n"
		    "    examples: ['%s', '%s']\n    counterexamples: ['nothing']\n",
		    pat[k], line[k], line[k]);
		rb = book(text);
		m = matcher_new(rb);
		matcher_match(m, line[k], strlen(line[k]), line[k], strlen(line[k]), 0, 0, on, &c);
		assert_int_equal(c.hits[0], 1);
		matcher_free(m);
		rulebook_free(rb);
	}
}

static void
test_prefilter_hides_nothing(void **state)
{
	struct rulebook *rb = book(yaml);
	struct matcher *m = matcher_new(rb);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	char line[512];
	unsigned seed = 12345;
	int iter;

	(void)state;
	assert_int_equal(matcher_unfiltered(m), 1);	/* f: "ab+c\d{2,}xyz" has no 4-byte literal... */
	for (iter = 0; iter < 40000; iter++) {
		struct count c = { { 0 } };
		size_t len;

		/* tuned to a sample, the prefilter must still hide nothing */
		if (iter == 20000)
			matcher_tune(m, sample, sizeof sample - 1);
		len = random_line(&seed, line, sizeof line);
		matcher_match(m, line, len, line, len, 0, 0, on, &c);
		agrees(rb, md, &c, line, len);
	}
	pcre2_match_data_free(md);
	matcher_free(m);
	rulebook_free(rb);
}

/* Scanned as one block, then asked line by line (some lines skipped, as
 * blank messages are, and lines from elsewhere asked in between): the
 * same findings as line by line. */
static void
test_block_scan_agrees(void **state)
{
	struct rulebook *rb = book(yaml);
	struct matcher *m = matcher_new(rb);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	char *block = malloc(64 * 1024), other[512];
	size_t *starts = malloc(sizeof *starts * 4096);
	unsigned seed = 777;
	int round;

	(void)state;
	for (round = 0; round < 200; round++) {
		size_t n = 0, nlines = 0, i;

		if (round == 100)
			matcher_tune(m, sample, sizeof sample - 1);
		while (n + 600 < 64 * 1024 && nlines < 4095) {
			starts[nlines++] = n;
			n += random_line(&seed, block + n, 512);
			block[n++] = '\n';
		}
		starts[nlines] = n;
		matcher_scan(m, block, n);
		for (i = 0; i < nlines; i++) {
			struct count c = { { 0 } };
			size_t len = starts[i + 1] - starts[i] - 1;

			if (rnd(&seed) % 7 == 0)
				continue;
			if (rnd(&seed) % 11 == 0) {
				size_t olen = random_line(&seed, other, sizeof other);

				matcher_match(m, other, olen, other, olen, 0, 0, on, &c);
				agrees(rb, md, &c, other, olen);
				memset(&c, 0, sizeof c);
			}
			matcher_match(m, block + starts[i], len, block + starts[i], len, 0, 0, on, &c);
			agrees(rb, md, &c, block + starts[i], len);
		}
	}
	matcher_scan(m, NULL, 0);
	free(block);
	free(starts);
	pcre2_match_data_free(md);
	matcher_free(m);
	rulebook_free(rb);
}

/* A signature with a requires list is looked for by whichever of its two
 * sets of literals is rarer in the sample the matcher is tuned on; either
 * way it matches what its regex matches. */
static void
test_rarer_set_triggers(void **state)
{
	struct rulebook *rb = book(
	    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
	    "signatures:\n"
	    "  - {id: b, role: collateral, pattern: 'Watchdog caught collective operation timeout'}\n"
	    "  - {id: g, role: symptom, pattern: 'loss[:=] ?(?:nan|inf)', prefilter: [loss],\n"
	    "     requires: [':nan', ': nan', '=nan', '= nan', ':inf', ': inf', '=inf', '= inf']}\n");
	struct matcher *m = matcher_new(rb);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	char tsample[8192], line[512];
	const char *step = "step 120 | loss 2.1723 | lr 1.9e-04";
	size_t n = 0, len;
	unsigned seed = 4242;
	int iter;

	(void)state;
	/* untuned: "loss" lets g through, and its regex says no */
	matcher_match(m, step, strlen(step), step, strlen(step), 0, 0, on, &(struct count){ { 0 } });
	assert_true(matcher_had_candidates(m) > 0);
	/* a training log: "loss" on every line, ": nan" on none */
	while (n + strlen(step) + 1 < sizeof tsample) {
		memcpy(tsample + n, step, strlen(step));
		n += strlen(step);
		tsample[n++] = '\n';
	}
	matcher_tune(m, tsample, n);
	matcher_match(m, step, strlen(step), step, strlen(step), 0, 0, on, &(struct count){ { 0 } });
	assert_int_equal(matcher_had_candidates(m), 0);
	for (iter = 0; iter < 20000; iter++) {
		struct count c = { { 0 } };

		len = random_line(&seed, line, sizeof line);
		matcher_match(m, line, len, line, len, 0, 0, on, &c);
		agrees(rb, md, &c, line, len);
	}
	/* a sample where ": nan" is the commoner: back to "loss" */
	n = 0;
	while (n + 14 <= sizeof tsample) {
		memcpy(tsample + n, "x: nan y: nan\n", 14);
		n += 14;
	}
	matcher_tune(m, tsample, n);
	matcher_match(m, step, strlen(step), step, strlen(step), 0, 0, on, &(struct count){ { 0 } });
	assert_true(matcher_had_candidates(m) > 0);
	pcre2_match_data_free(md);
	matcher_free(m);
	rulebook_free(rb);
}

/* A line whose candidates failed may be the first half of a hard-wrapped
 * one: matcher_may_continue says no only when no words after it could
 * make one of them match from inside it (a PCRE2 partial match). */
static void
test_may_continue(void **state)
{
	struct rulebook *rb = book(
	    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
	    "signatures:\n"
	    "  - {id: x, role: initiating, pattern: '^(?<t>[A-Z]\\w*Error)(?:: (?<m>.*))?$',\n"
	    "     prefilter: [Error]}\n"
	    "  - {id: y, role: collateral, pattern: 'Watchdog caught collective operation timeout: (?<w>\\w+)'}\n"
	    "  - {id: z, role: symptom, pattern: 'loss[:=] ?(?:nan|inf)', prefilter: [loss]}\n");
	struct matcher *m = matcher_new(rb);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	const char *frame = "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96";
	const char *half = "[E] Watchdog caught collective operation timeout: ";
	const uint32_t *failed;
	char a[512], j[512];
	size_t n, la, lb, i;
	unsigned seed = 77;
	int iter, could = 0, couldnot = 0;

	(void)state;
	/* a C++ stack frame: "Error" lets x through, and no words after it
	 * make a line that starts with a class name */
	assert_int_equal(matcher_match(m, frame, strlen(frame), frame, strlen(frame), 0, 0, on,
	    &(struct count){ { 0 } }), 0);
	n = matcher_failed(m, &failed);
	assert_int_equal(n, 1);
	assert_int_equal(failed[0], 0);
	assert_false(matcher_may_continue(m, failed, n, frame, strlen(frame)));
	/* a line cut before the words y captures: it could still match */
	(void)matcher_match(m, half, strlen(half), half, strlen(half), 0, 0, on, &(struct count){ { 0 } });
	n = matcher_failed(m, &failed);
	assert_true(matcher_may_continue(m, failed, n, half, strlen(half)));
	/* never a no where a continuation makes a match that starts inside
	 * the first half */
	for (iter = 0; iter < 20000; iter++) {
		/* a random line, wrapped at a random place */
		lb = random_line(&seed, j, sizeof j);
		la = rnd(&seed) % (lb + 1);
		lb -= la;
		memcpy(a, j, la);
		(void)matcher_match(m, a, la, a, la, 0, 0, on, &(struct count){ { 0 } });
		n = matcher_failed(m, &failed);
		for (i = 0; i < n; i++) {
			const struct signature *s = rb->sigs[failed[i]];
			int rc = pcre2_match(s->re, (PCRE2_SPTR)j, la + lb, 0, 0, md, NULL);

			if (rc >= 0 && pcre2_get_ovector_pointer(md)[0] < la) {
				assert_true(matcher_may_continue(m, failed + i, 1, a, la));
				could++;
			} else if (!matcher_may_continue(m, failed + i, 1, a, la))
				couldnot++;
		}
	}
	/* (both cases came up) */
	assert_true(could > 100);
	assert_true(couldnot > 100);
	pcre2_match_data_free(md);
	matcher_free(m);
	rulebook_free(rb);
}

/* A fallback signature matches a line only when no other one does. */
static void
test_fallback_only_alone(void **state)
{
	struct rulebook *rb = book(
	    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
	    "signatures:\n"
	    "  - {id: x, role: collateral, pattern: 'Connection reset by peer'}\n"
	    "  - {id: y, role: collateral, pattern: '^\\w*Error\\b', fallback: true}\n");
	struct matcher *m = matcher_new(rb);
	const char *reset = "ConnectionResetError: Connection reset by peer";
	const char *other = "ConnectionResetError: [Errno 104] the peer went away";
	struct count c = { { 0 } }, d = { { 0 } };

	(void)state;
	assert_int_equal(matcher_match(m, reset, strlen(reset), reset, strlen(reset), 0, 0, on, &c), 1);
	assert_int_equal(c.hits[0], 1);
	assert_int_equal(c.hits[1], 0);
	assert_int_equal(matcher_match(m, other, strlen(other), other, strlen(other), 0, 0, on, &d), 1);
	assert_int_equal(d.hits[0], 0);
	assert_int_equal(d.hits[1], 1);
	matcher_free(m);
	rulebook_free(rb);
}

/* A signature with a level runs on the lines of that level (fatal ones
 * too for error), whatever the prefilter finds, and as a catch-all after
 * every other one: the catch-all of catch-alls. */
static void
test_level_runs_by_level(void **state)
{
	struct rulebook *rb = book(
	    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
	    "signatures:\n"
	    "  - {id: any, role: initiating, level: error, fallback: true, pattern: '[a-z]{3}'}\n"
	    "  - {id: x, role: collateral, pattern: 'Connection reset by peer'}\n"
	    "  - {id: y, role: collateral, pattern: '^\\w*Error\\b', fallback: true}\n"
	    "  - {id: f, role: symptom, level: fatal, pattern: 'lost'}\n");
	struct matcher *m = matcher_new(rb);
	static const struct {
		const char	*msg;
		char		 sev;
		int		 any, x, y, f;
	} c[] = {
		{ "segment lost", 'E', 1, 0, 0, 0 },
		{ "segment lost", 'F', 0, 0, 0, 1 },	/* (f read it) */
		{ "segment lost", 'W', 0, 0, 0, 0 },
		{ "segment lost", 0, 0, 0, 0, 0 },
		{ "ConnectionResetError: Connection reset by peer", 'E', 0, 1, 0, 0 },
		{ "ConnectionResetError: the peer went away", 'E', 0, 0, 1, 0 },
		{ "0x00 0x01", 'E', 0, 0, 0, 0 },
	};
	size_t i;

	(void)state;
	assert_int_equal(matcher_unfiltered(m), 0);
	for (i = 0; i < sizeof c / sizeof *c; i++) {
		struct count n = { { 0 } };
		size_t len = strlen(c[i].msg);

		(void)matcher_match(m, c[i].msg, len, c[i].msg, len, c[i].sev, 0, on, &n);
		assert_int_equal(n.hits[0], c[i].any);
		assert_int_equal(n.hits[1], c[i].x);
		assert_int_equal(n.hits[2], c[i].y);
		assert_int_equal(n.hits[3], c[i].f);
	}
	matcher_free(m);
	rulebook_free(rb);
}

static void
test_catastrophic_regex_gives_up(void **state)
{
	struct rulebook *rb = book(
	    "id: t\ntitle: T\ncategory: memory\nseverity: low\nsummary: s\n"
	    "signatures:\n"
	    "  - {id: slow, role: symptom, pattern: 'catastrophe: (a+)+$'}\n");
	struct matcher *m = matcher_new(rb);
	char line[20000];
	struct count c = { { 0 } };
	const struct signature *bad;
	int code;

	(void)state;
	memcpy(line, "catastrophe: ", 13);
	memset(line + 13, 'a', sizeof line - 14);
	line[sizeof line - 1] = '!';
	assert_int_equal(matcher_match(m, line, sizeof line, line, sizeof line, 0, 0, on, &c), 0);
	bad = matcher_take_error(m, &code);
	assert_non_null(bad);
	assert_string_equal(bad->id, "slow");
	assert_true(code < 0);
	assert_null(matcher_take_error(m, &code));
	matcher_free(m);
	rulebook_free(rb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragment_extraction),
		cmocka_unit_test(test_prefilter_hides_nothing),
		cmocka_unit_test(test_inline_flags_hide_nothing),
		cmocka_unit_test(test_block_scan_agrees),
		cmocka_unit_test(test_rarer_set_triggers),
		cmocka_unit_test(test_may_continue),
		cmocka_unit_test(test_fallback_only_alone),
		cmocka_unit_test(test_level_runs_by_level),
		cmocka_unit_test(test_catastrophic_regex_gives_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
