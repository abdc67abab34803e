/* test_rulebook.c: loading entries, and errors that name file, line, column. */
#include "config.h"

#include "testutil.h"

#include "rulebook.h"

static const char good[] =
    "id: demo-entry\n"
    "title: Demo entry\n"
    "category: memory\n"
    "severity: high\n"
    "summary: A demo.\n"
    "symptoms:\n"
    "  - symptom: it breaks\n"
    "    why: because\n"
    "    signal: boom\n"
    "checklist:\n"
    "  - step: look\n"
    "    signal: many\n"
    "  - plain step\n"
    "fix:\n"
    "  steps: [do it]\n"
    "  verify: run it\n"
    "references:\n"
    "  - title: T\n"
    "    url: https://example.org/\n"
    "signatures:\n"
    "  - id: boom\n"
    "    role: initiating\n"
    "    pattern: 'boom at step (?<step>\\d+) on (?<host>\\S+)'\n"
    "    examples: ['boom at step 3 on h1', 'x boom at step 4 on h2']\n"
    "    counterexamples: ['boom at step x']\n"
    "conditions:\n"
    "  - id: many\n"
    "    text: boom on many ranks\n"
    "    from: [boom]\n"
    "    test: count\n";

static void
test_load_good_entry(void **state)
{
	char *dir = tu_tmpdir();
	struct rulebook *rb = rulebook_new();
	struct notes ns;
	const struct entry *e;
	const struct signature *s;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "demo-entry.yaml", good);
	TU_WRITE(dir, "README.md", "not a rule");
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 0);
	assert_int_equal(rulebook_finish(rb, &ns), 0);
	assert_int_equal(ns.errors, 0);
	e = rulebook_entry(rb, "demo-entry");
	assert_non_null(e);
	assert_int_equal(e->nsymptoms, 1);
	assert_int_equal(e->nchecklist, 2);
	assert_string_equal(e->checklist[1].step, "plain step");
	assert_null(e->checklist[1].signal);
	assert_string_equal(e->fix_verify, "run it");
	s = rulebook_signature(rb, NULL, "demo-entry/boom");
	assert_non_null(s);
	assert_int_equal(s->role, ROLE_INITIATING);
	assert_true(s->weight == 3);
	assert_int_equal(s->ngroups, 2);
	assert_string_equal(rb->facts[s->fact_of_group[1]], "step");
	assert_int_equal(rb->nsigs, 1);
	assert_int_equal(rb->nconds, 1);
	assert_int_equal(rb->conds[0]->nfromsig, 1);
	rulebook_free(rb);
	notes_release(&ns);
	tu_rmdir(dir);
}

static const struct note *
only_error(const struct notes *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (ns->v[i].level == NOTE_ERROR)
			return &ns->v[i];
	fail_msg("no error note");
	return NULL;
}

/* The good entry with tail appended must be refused whole, with an error
 * saying what (at line, unless 0). */
static void
good_plus_refused(const char *dir, const char *tail, const char *what, unsigned long line)
{
	struct rulebook *rb = rulebook_new();
	struct notes ns;
	const struct note *n;
	char *bad = malloc(sizeof good + strlen(tail));

	notes_init(&ns);
	strcpy(bad, good);
	strcat(bad, tail);
	TU_WRITE(dir, "b.yaml", bad);
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 1);
	n = only_error(&ns);
	assert_non_null(strstr(n->text, what));
	if (line != 0)
		assert_int_equal(n->line, line);
	assert_int_equal(rb->nentries, 0);
	rulebook_free(rb);
	notes_release(&ns);
	free(bad);
}

/* The good file with its signature's role line replaced by role: a
 * file refused, saying what. */
static void
role_refused(const char *dir, const char *role, const char *what)
{
	struct rulebook *rb = rulebook_new();
	struct notes ns;
	const char *at = strstr(good, "    role: initiating\n");
	char *bad = malloc(sizeof good + strlen(role));

	notes_init(&ns);
	memcpy(bad, good, (size_t)(at - good));
	strcpy(bad + (at - good), role);
	strcat(bad, at + strlen("    role: initiating\n"));
	TU_WRITE(dir, "b.yaml", bad);
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 1);
	assert_non_null(strstr(only_error(&ns)->text, what));
	rulebook_free(rb);
	notes_release(&ns);
	free(bad);
}

static void
test_errors_name_place(void **state)
{
	char *dir = tu_tmpdir();
	struct rulebook *rb;
	struct notes ns;
	const struct note *n;
	char *bad;

	(void)state;
	/* a YAML syntax error */
	notes_init(&ns);
	rb = rulebook_new();
	TU_WRITE(dir, "a.yaml", "id: x\ntitle: [unclosed\n");
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 1);
	n = only_error(&ns);
	assert_non_null(strstr(n->file, "a.yaml"));
	assert_true(n->line >= 2);
	assert_int_equal(rb->nentries, 0);
	rulebook_free(rb);
	notes_release(&ns);
	{
		char p[512];

		snprintf(p, sizeof p, "%s/a.yaml", dir);
		unlink(p);
	}

	/* an unknown key: line and column of the key */
	notes_init(&ns);
	rb = rulebook_new();
	bad = malloc(sizeof good + 32);
	strcpy(bad, good);
	strcat(bad, "mispelled: 1\n");
	TU_WRITE(dir, "b.yaml", bad);
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 1);
	n = only_error(&ns);
	assert_non_null(strstr(n->text, "unknown key 'mispelled'"));
	assert_int_equal(n->line, 31);
	assert_int_equal(n->col, 1);
	assert_int_equal(rb->nentries, 0);	/* all or nothing */
	rulebook_free(rb);
	notes_release(&ns);
	free(bad);

	/* a key given twice: an error at the second, and nothing loads */
	good_plus_refused(dir, "symptoms: []\n", "duplicate key", 31);
	/* counts are whole numbers in range, never NaN or 1e30 cast to int */
	good_plus_refused(dir, "    min_ranks: 1e30\n", "min_ranks must be a whole number", 0);
	good_plus_refused(dir, "    min_ranks: nan\n", "min_ranks must be a whole number", 0);
	/* group_by names one fact or two */
	good_plus_refused(dir, "    group_by: [step, host, seq]\n", "group_by names one fact or two", 0);

	/* only_at_end is for trouble: a context line is no cut record */
	role_refused(dir, "    role: context\n    only_at_end: true\n",
	    "only_at_end is for trouble");
	/* last_resort is for a failure line: a collateral one is no death */
	role_refused(dir, "    role: collateral\n    last_resort: true\n",
	    "last_resort is for initiating lines");
	/* defines is for fallout and signs: a failure line of the entry
	 * needs no required condition already */
	role_refused(dir, "    role: initiating\n    defines: true\n",
	    "defines is for collateral and symptom lines");
	/* unranked is for a context line: a failure counts on any line */
	role_refused(dir, "    role: initiating\n    unranked: true\n",
	    "unranked is for context lines");
	/* what fallout says is one of three kinds */
	role_refused(dir, "    role: collateral\n    fallout: waiting\n",
	    "unknown fallout 'waiting'");
	/* a level is error or fatal, and it is the signature's prefilter */
	role_refused(dir, "    role: initiating\n    level: warning\n",
	    "unknown level 'warning'");
	role_refused(dir, "    role: initiating\n    level: error\n    prefilter: [boom]\n",
	    "a level is its prefilter");

	/* a bad regex, and a good file beside it still loads */
	notes_init(&ns);
	rb = rulebook_new();
	bad = strdup(good);
	memcpy(strstr(bad, "(?<step>"), "((((((((", 8);
	TU_WRITE(dir, "b.yaml", bad);
	TU_WRITE(dir, "c.yaml", good);
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 1);
	n = only_error(&ns);
	assert_non_null(strstr(n->text, "bad regular expression"));
	assert_int_equal(n->line, 23);
	assert_int_equal(rb->nentries, 1);
	rulebook_free(rb);
	notes_release(&ns);
	free(bad);
	tu_rmdir(dir);
}

static void
test_override_and_dangling_refs(void **state)
{
	char *a = tu_tmpdir(), *b = tu_tmpdir(), *alt;
	struct rulebook *rb = rulebook_new();
	struct notes ns;

	(void)state;
	notes_init(&ns);
	TU_WRITE(a, "demo-entry.yaml", good);
	alt = strdup(good);
	memcpy(strstr(alt, "Demo entry"), "User entry", 10);
	memcpy(strstr(alt, "from: [boom]"), "from: [zzzz]", 12);
	TU_WRITE(b, "demo-entry.yaml", alt);
	rulebook_load_dir(rb, a, &ns);
	rulebook_load_dir(rb, b, &ns);
	assert_int_equal(rb->nentries, 1);
	assert_string_equal(rb->entries[0]->title, "User entry");
	assert_int_equal(rulebook_finish(rb, &ns), 1);	/* from: names no signature */
	assert_non_null(strstr(only_error(&ns)->text, "no signature 'zzzz'"));
	rulebook_free(rb);
	notes_release(&ns);
	free(alt);
	tu_rmdir(a);
	tu_rmdir(b);
}

static void
test_shipped_rules_load(void **state)
{
	struct rulebook *rb = rulebook_new();
	struct notes ns;

	(void)state;
	notes_init(&ns);
	assert_int_equal(rulebook_load_dir(rb, TEST_SRCDIR "/rules", &ns), 0);
	assert_int_equal(rulebook_finish(rb, &ns), 0);
	assert_true(rb->nentries >= 4);
	assert_non_null(rulebook_entry(rb, "nccl-watchdog-timeout"));
	assert_non_null(rulebook_entry(rb, "fsdp-shape-mismatch-hang"));
	assert_non_null(rulebook_entry(rb, "nccl-version-mismatch"));
	assert_non_null(rulebook_entry(rb, "ddp-bucket-size"));
	rulebook_free(rb);
	notes_release(&ns);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_good_entry),
		cmocka_unit_test(test_errors_name_place),
		cmocka_unit_test(test_override_and_dangling_refs),
		cmocka_unit_test(test_shipped_rules_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
