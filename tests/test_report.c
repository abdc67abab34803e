/* test_report.c: every format is well formed and no log byte reaches a
 * terminal or a parser unescaped. */
#include "config.h"

#include "testutil.h"

#include <yaml.h>

#include "report.h"

static const char yaml_rule[] =
    "id: boom\ntitle: Boom | with a pipe\ncategory: memory\nseverity: high\n"
    "summary: |\n  first line of the summary\n  second line\n"
    "signatures:\n"
    "  - {id: boom, role: initiating, pattern: 'BOOM (?<what>.*)'}\n";

static struct run *
make_run(char **dirp, char **rdirp, struct rulebook **rbp)
{
	struct notes ns;
	const char *paths[1];
	char *why = NULL, line[256];
	struct run *r;

	*rdirp = tu_tmpdir();
	TU_WRITE(*rdirp, "boom.yaml", yaml_rule);
	notes_init(&ns);
	*rbp = rulebook_new();
	assert_int_equal(rulebook_load_dir(*rbp, *rdirp, &ns), 0);
	rulebook_finish(*rbp, &ns);
	notes_release(&ns);
	*dirp = tu_tmpdir();
	TU_WRITE(*dirp, "rank0.log", "[2024-03-02 10:00:00,000] [INFO] [t.py:1:f] fine\n");
	/* a hostile line: terminal escapes, a quote, a pipe, a backtick,
	 * invalid UTF-8, a C1 control */
	snprintf(line, sizeof line, "[2024-03-02 10:00:05,000] [INFO] [t.py:1:f] BOOM "
	    "\x1b]0;pwned\x07\x1b[2J \"q\" a|b `c` \xff\xc2\x9b end\n");
	TU_WRITE(*dirp, "rank1.log", line);
	TU_WRITE(*dirp, "rank1.log", line);
	paths[0] = *dirp;
	r = run_new(*rbp, paths, 1, NULL, &why);
	assert_non_null(r);
	run_scan(r, 1);
	return r;
}

static void
render(struct run *r, const char *fmt, struct buf *out)
{
	const struct report_format *f = report_format_find(fmt);

	assert_non_null(f);
	buf_clear(out);
	report_render(f, r, out);
	assert_true(out->len > 0);
}

/* A run of one rank's log LOG read with the one entry RULE, scanned; its
 * rulebook and folders for rule_run_free. */
struct rule_run {
	struct rulebook	*rb;
	char		*rdir, *dir;
	struct run	*r;
};

static void
rule_run(struct rule_run *rr, const char *rule, const char *log)
{
	struct notes ns;
	const char *paths[1];
	char *why = NULL;

	rr->rb = rulebook_new();
	rr->rdir = tu_tmpdir();
	rr->dir = tu_tmpdir();
	TU_WRITE(rr->rdir, "rule.yaml", rule);
	notes_init(&ns);
	assert_int_equal(rulebook_load_dir(rr->rb, rr->rdir, &ns), 0);
	rulebook_finish(rr->rb, &ns);
	notes_release(&ns);
	TU_WRITE(rr->dir, "rank0.log", log);
	paths[0] = rr->dir;
	rr->r = run_new(rr->rb, paths, 1, NULL, &why);
	assert_non_null(rr->r);
	run_scan(rr->r, 1);
}

static void
rule_run_free(struct rule_run *rr)
{
	run_free(rr->r);
	rulebook_free(rr->rb);
	tu_rmdir(rr->dir);
	tu_rmdir(rr->rdir);
}

static void
test_text_and_markdown_are_safe(void **state)
{
	char *dir, *rdir;
	struct rulebook *rb;
	struct run *r = make_run(&dir, &rdir, &rb);
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	render(r, "text", &out);
	assert_non_null(strstr(out.s, "FAILURE  rank 1 first: Boom | with a pipe"));
	assert_non_null(strstr(out.s, "^[]0;pwned^G^[[2J"));
	for (i = 0; i < out.len; i++)
		assert_true((unsigned char)out.s[i] >= 0x20 || out.s[i] == '\n');
	assert_null(strstr(out.s, "\xc2\x9b"));
	render(r, "markdown", &out);
	assert_non_null(strstr(out.s, "## rankwatch: failure, rank 1 first: Boom \\| with a pipe"));
	assert_non_null(strstr(out.s, "a\\|b 'c'"));
	/* the summary is quoted line by line, with no newline shown as ^J */
	assert_non_null(strstr(out.s, "\n> first line of the summary\n> second line\n"));
	assert_null(strstr(out.s, "^J"));
	assert_non_null(strstr(out.s, "**Run:** 2 files ("));
	for (i = 0; i < out.len; i++)
		assert_true((unsigned char)out.s[i] >= 0x20 || out.s[i] == '\n');
	assert_null(report_format_find("xml"));
	buf_release(&out);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
	tu_rmdir(rdir);
}

/* Find a key's scalar value in a flat walk of the document. */
static int
json_walk(yaml_document_t *doc, yaml_node_t *n, const char *key, char *out, size_t len)
{
	yaml_node_pair_t *p;
	yaml_node_item_t *it;

	if (n->type == YAML_MAPPING_NODE) {
		for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			yaml_node_t *v = yaml_document_get_node(doc, p->value);

			if (strcmp((char *)k->data.scalar.value, key) == 0 &&
			    v->type == YAML_SCALAR_NODE) {
				snprintf(out, len, "%s", (char *)v->data.scalar.value);
				return 1;
			}
			if (json_walk(doc, v, key, out, len))
				return 1;
		}
	} else if (n->type == YAML_SEQUENCE_NODE)
		for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
			if (json_walk(doc, yaml_document_get_node(doc, *it), key, out, len))
				return 1;
	return 0;
}

static void
test_json_parses(void **state)
{
	char *dir, *rdir, v[512];
	struct rulebook *rb;
	struct run *r = make_run(&dir, &rdir, &rb);
	struct buf out = BUF_INIT;
	yaml_parser_t p;
	yaml_document_t doc;

	(void)state;
	render(r, "json", &out);
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (unsigned char *)out.s, out.len);
	assert_true(yaml_parser_load(&p, &doc));
	assert_true(json_walk(&doc, yaml_document_get_root_node(&doc), "verdict", v, sizeof v));
	assert_string_equal(v, "failure");
	assert_true(json_walk(&doc, yaml_document_get_root_node(&doc), "entry", v, sizeof v));
	assert_string_equal(v, "boom");
	assert_true(json_walk(&doc, yaml_document_get_root_node(&doc), "what", v, sizeof v));
	/* the fact round-trips: escapes decoded, invalid bytes as U+FFFD */
	assert_non_null(strstr(v, "\x1b]0;pwned\x07"));
	assert_non_null(strstr(v, "\"q\" a|b `c` \xef\xbf\xbd"));
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	assert_int_equal(report_exit_status(incident_analyse(r->incident)), 1);
	buf_release(&out);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
	tu_rmdir(rdir);
}

/* An event keeps where its line is; a report reads it back, and says
 * null, not another line, when the file was rewritten since. The first
 * failure-like line of a rank keeps its text and is still shown. */
static void
test_lines_read_back(void **state)
{
	static const char rule[] =
	    "id: two\ntitle: Two\ncategory: memory\nseverity: high\n"
	    "summary: s\n"
	    "signatures:\n"
	    "  - {id: boom, role: initiating, pattern: 'BOOM (?<what>\\w+)'}\n"
	    "  - {id: bang, role: symptom, pattern: 'BANG (?<why>\\w+)'}\n";
	static const char log[] =
	    "[2024-03-02 10:00:05,000] [INFO] [t.py:1:f] BOOM first\n"
	    "[2024-03-02 10:00:06,000] [INFO] [t.py:1:f] BANG second\n";
	struct rule_run rr;
	struct run *r;
	char *after;
	struct buf out = BUF_INIT;

	(void)state;
	rule_run(&rr, rule, log);
	r = rr.r;
	render(r, "json", &out);
	assert_non_null(strstr(out.s, "\"text\": \"[2024-03-02 10:00:05,000] [INFO] [t.py:1:f] BOOM first\""));
	assert_non_null(strstr(out.s, "\"text\": \"[2024-03-02 10:00:06,000] [INFO] [t.py:1:f] BANG second\""));
	/* the same length, other bytes: copytruncate and a new writer */
	after = strdup(log);
	after[strlen(after) - 3] = 'X';
	TU_WRITE(rr.dir, "rank0.log", after);
	render(r, "json", &out);
	assert_non_null(strstr(out.s, "BOOM first"));	/* kept */
	assert_null(strstr(out.s, "BANG second"));
	assert_null(strstr(out.s, "secoXd"));		/* never another line's text */
	assert_non_null(strstr(out.s, "\"signature\": \"bang\", \"role\": \"symptom\", "
	    "\"facts\": {\"why\": \"second\"}, \"text\": null"));
	render(r, "text", &out);
	assert_non_null(strstr(out.s, "no longer in its file"));
	free(after);
	buf_release(&out);
	rule_run_free(&rr);
}

static size_t
count_of(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

/* A line two signatures of one entry read is shown once among that
 * entry's evidence (text and Markdown); JSON keeps both events. */
static void
test_line_read_twice_shown_once(void **state)
{
	static const char rule[] =
	    "id: two\ntitle: Two\ncategory: memory\nseverity: high\n"
	    "summary: s\n"
	    "signatures:\n"
	    "  - {id: boom, role: initiating, pattern: 'BOOM (?<what>\\w+)'}\n"
	    "  - {id: boom-again, role: initiating, pattern: 'BOOM \\w+ at (?<where>\\w+)'}\n";
	struct rule_run rr;
	struct buf out = BUF_INIT;

	(void)state;
	rule_run(&rr, rule, "[2024-03-02 10:00:05,000] [INFO] [t.py:1:f] BOOM first at start\n");
	render(rr.r, "json", &out);
	assert_non_null(strstr(out.s, "\"signature\": \"boom\","));
	assert_non_null(strstr(out.s, "\"signature\": \"boom-again\","));
	render(rr.r, "text", &out);
	/* the initiating event, and once among the evidence */
	assert_int_equal(count_of(out.s, "BOOM first at start"), 2);
	render(rr.r, "markdown", &out);
	assert_int_equal(count_of(out.s, "| `rank0.log:1` |"), 2);	/* the same */
	buf_release(&out);
	rule_run_free(&rr);
}

/* The exposition on a fixed clock: the families and their values, the
 * ages from the clock, the lag from the newest rank; the label values are
 * escaped. */
static void
test_prometheus(void **state)
{
	char *dir, *rdir;
	struct rulebook *rb;
	struct run *r = make_run(&dir, &rdir, &rb);
	struct buf out = BUF_INIT;
	/* 2024-03-02 10:00:35 UTC: 35 s after rank 0's line, 30 after rank 1's */
	struct report_clock clk = { 1709373635, 1709373600 };

	(void)state;
	report_prometheus(r, incident_analyse(r->incident), &clk, &out);
	assert_non_null(strstr(out.s, "# TYPE rankwatch_up gauge\nrankwatch_up 1\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_verdict{verdict=\"healthy\"} 0\n"
	    "rankwatch_verdict{verdict=\"failure\"} 1\nrankwatch_verdict{verdict=\"hang\"} 0\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_initiating_known 1\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_initiating_rank 1\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_diagnosis_score{entry=\"boom\",category=\"memory\","
	    "severity=\"high\"} "));
	assert_non_null(strstr(out.s, "\nrankwatch_ranks{role=\"initiating\"} 1\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_lines_total 2\n"));
	assert_non_null(strstr(out.s, "# TYPE rankwatch_rank_idle_seconds histogram\n"
	    "rankwatch_rank_idle_seconds_bucket{le=\"10\"} 0\n"
	    "rankwatch_rank_idle_seconds_bucket{le=\"30\"} 1\n"
	    "rankwatch_rank_idle_seconds_bucket{le=\"60\"} 2\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_rank_idle_seconds_bucket{le=\"+Inf\"} 2\n"
	    "rankwatch_rank_idle_seconds_sum 65\nrankwatch_rank_idle_seconds_count 2\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_rank_lag_seconds_bucket{le=\"10\"} 2\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_rank_lag_seconds_sum 5\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_last_line_timestamp_seconds 1709373605\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_last_change_timestamp_seconds 1709373600\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_generated_timestamp_seconds 1709373635\n"));
	assert_true(out.s[out.len - 1] == '\n');
	/* the wall clock, through the format table: the same families */
	render(r, "prometheus", &out);
	assert_non_null(strstr(out.s, "rankwatch_rank_lag_seconds_sum 5\n"));
	buf_release(&out);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
	tu_rmdir(rdir);
}

/* Nothing read: rankwatch_up 0, and no verdict, least of all healthy. */
static void
test_prometheus_nothing_read(void **state)
{
	char *dir = tu_tmpdir(), *rdir = tu_tmpdir(), *why = NULL;
	struct rulebook *rb;
	struct notes ns;
	const char *paths[1];
	struct run *r;
	struct buf out = BUF_INIT;

	(void)state;
	TU_WRITE(rdir, "boom.yaml", yaml_rule);
	notes_init(&ns);
	rb = rulebook_new();
	rulebook_load_dir(rb, rdir, &ns);
	rulebook_finish(rb, &ns);
	notes_release(&ns);
	TU_WRITE(dir, "rank0.log", "");
	paths[0] = dir;
	r = run_new(rb, paths, 1, NULL, &why);
	assert_non_null(r);
	run_scan(r, 1);
	render(r, "prometheus", &out);
	assert_non_null(strstr(out.s, "\nrankwatch_up 0\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_verdict{verdict=\"healthy\"} 0\n"));
	assert_null(strstr(out.s, "verdict=\"failure\"} 1"));
	assert_null(strstr(out.s, "verdict=\"hang\"} 1"));
	assert_null(strstr(out.s, "confidence=\"high\"} 1"));
	assert_non_null(strstr(out.s, "\nrankwatch_initiating_rank -1\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_ranks{role=\"healthy\"} 0\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_lines_total 0\n"));
	assert_non_null(strstr(out.s, "\nrankwatch_rank_idle_seconds_count 0\n"));
	buf_release(&out);
	run_free(r);
	rulebook_free(rb);
	tu_rmdir(dir);
	tu_rmdir(rdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_markdown_are_safe),
		cmocka_unit_test(test_json_parses),
		cmocka_unit_test(test_lines_read_back),
		cmocka_unit_test(test_line_read_twice_shown_once),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_prometheus_nothing_read),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
