/* test_envelope.c: taking off what kubectl, stern, the CRI and the log
 * stores wrap around a line, with the shipped rules/layouts; and what a
 * layouts file may say. */
#include "config.h"

#include "testutil.h"

#include "envelope.h"
#include "layouts.h"
#include "notes.h"
#include "stamp.h"

static struct layouts *lay;
static struct envstate es;
static struct buf scratch = BUF_INIT;

static int
setup(void **state)
{
	struct notes ns;

	(void)state;
	setenv("TZ", "UTC", 1);
	notes_init(&ns);
	lay = layouts_new();
	assert_int_equal(layouts_load_dir(lay, TEST_SRCDIR "/rules/layouts", &ns), 0);
	assert_int_equal(ns.n, 0);
	notes_release(&ns);
	envstate_init(&es);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	layouts_free(lay);
	envstate_release(&es);
	buf_release(&scratch);
	return 0;
}

static int
take(const char *line, struct envelope *env)
{
	return envelope_take(lay, &es, line, strlen(line), env, &scratch);
}

static int
takes(struct envstate *e, const char *line, struct envelope *env)
{
	return envelope_take(lay, e, line, strlen(line), env, &scratch);
}

static void
assert_text(const struct envelope *env, const char *want)
{
	assert_int_equal(env->len, strlen(want));
	assert_memory_equal(env->text, want, env->len);
}

static void
assert_time(const struct envelope *env, const char *want)
{
	char b[64];

	assert_true(env->ts.flags & STAMP_TIME);
	stamp_format(&env->ts, 1, b, sizeof b);
	assert_string_equal(b, want);
}

static void
test_pods(void **state)
{
	struct envstate e;

	(void)state;
	envstate_init(&e);
	/* PyTorchJob: master-0 is rank 0, worker-N is N+1 */
	assert_int_equal(envelope_pod_index(lay, &e, "train-master-0", 14), 0);
	assert_int_equal(envelope_pod_index(lay, &e, "train-worker-0", 14), 1);
	assert_int_equal(envelope_pod_index(lay, &e, "train-worker-12", 15), 13);
	/* Trainer v2 / JobSet: the completion index */
	assert_int_equal(envelope_pod_index(lay, &e, "llm-node-0-3-x7k2p", 18), 3);
	assert_int_equal(envelope_pod_index(lay, &e, "sim-workers-0-7-ab12c", 21), 7);
	/* an Indexed Job */
	assert_int_equal(envelope_pod_index(lay, &e, "bert-2-t1w6z", 12), 2);
	/* no operator's name: no rank (a JobSet's second Job: how many pods
	 * the first has is not in the name) */
	assert_int_equal(envelope_pod_index(lay, &e, "nginx-7d9c8b", 12), -1);
	assert_int_equal(envelope_pod_index(lay, &e, "raycluster-head-x8k2m", 21), -1);
	envstate_release(&e);
}

static void
test_kubectl(void **state)
{
	struct envelope env;

	(void)state;
	assert_true(take("[pod/train-worker-4/pytorch] 2025-05-02T10:11:29.300000000Z "
	    "torch.OutOfMemoryError: CUDA out of memory.", &env));
	assert_int_equal(env.kind, ENV_KUBECTL);
	assert_string_equal(env.pod, "train-worker-4");
	assert_string_equal(env.container, "pytorch");
	assert_int_equal(env.index, 5);
	assert_false(env.decoded);
	assert_text(&env, "torch.OutOfMemoryError: CUDA out of memory.");
	assert_time(&env, "2025-05-02 10:11:29");
	/* without --timestamps; and a zone that is not UTC */
	assert_true(take("[pod/train-master-0/pytorch] step 3", &env));
	assert_int_equal(env.index, 0);
	assert_false(env.ts.flags & STAMP_TIME);
	assert_text(&env, "step 3");
	assert_true(take("[pod/x-worker-1/c] 2025-05-02T12:11:29.5+02:00 hi", &env));
	assert_time(&env, "2025-05-02 10:11:29");
	/* a log's own brackets are no envelope */
	assert_false(take("[rank3]:[E502 10:11:29.3 ProcessGroupNCCL.cpp:632] x", &env));
	assert_false(take("[pod/] x", &env));
}

static void
test_stern(void **state)
{
	struct envelope env;
	struct envstate e;

	(void)state;
	envstate_init(&e);
	/* plain text that looks like two words and a message is not stern */
	assert_false(takes(&e, "step 1200 loss 2.1", &env));
	assert_false(takes(&e, "rank 3 of 8 on gpu-a01", &env));
	/* with a time, or in colour, or with an operator's pod name, it is */
	assert_true(takes(&e, "train-worker-2 pytorch 2025-10-07T01:30:05.1Z step 1", &env));
	assert_int_equal(env.kind, ENV_STERN);
	assert_int_equal(env.index, 3);
	assert_text(&env, "step 1");
	envstate_release(&e);
	envstate_init(&e);
	assert_true(takes(&e, "\033[96mbert-0-m2x9c\033[0m \033[36mbert\033[0m hello", &env));
	assert_string_equal(env.pod, "bert-0-m2x9c");
	assert_string_equal(env.container, "bert");
	assert_text(&env, "hello");
	envstate_release(&e);
	envstate_init(&e);
	assert_true(takes(&e, "train-worker-2 pytorch hello", &env));
	assert_int_equal(env.index, 3);
	envstate_release(&e);
}

static void
test_cri(void **state)
{
	struct envelope env;

	(void)state;
	/* a source of its own: one that showed kubectl's prefix is not
	 * looked at for CRI's */
	envstate_release(&es);
	envstate_init(&es);
	assert_true(take("2025-05-02T10:11:12.669794202Z stderr F RuntimeError: CUDA error", &env));
	assert_int_equal(env.kind, ENV_CRI);
	assert_text(&env, "RuntimeError: CUDA error");
	assert_time(&env, "2025-05-02 10:11:12");
	assert_int_equal(env.ts.nsec, 669794202);
	assert_true(take("2025-05-02T10:11:12.669794202Z stdout P a long line, its fir", &env));
	assert_text(&env, "a long line, its fir");
	/* an ISO time at the head of a plain log line is the line's own */
	assert_false(take("2025-05-02T10:11:12.5Z INFO step 3", &env));
}

static void
test_json_records(void **state)
{
	struct envelope env;
	static const char loki[] = "{\"labels\":{\"container\":\"trainer\",\"node_name\":\"gpu-7\","
	    "\"pod\":\"llm-node-0-2-h3t8w\"},\"line\":\"[default1]:hello \\u00e9 \\ud83d\\ude00\","
	    "\"timestamp\":\"2025-06-09T03:40:16.2Z\"}";
	static const char es_dotted[] = "{\"_id\":\"1\",\"_source\":{\"@timestamp\":"
	    "\"2025-07-21T22:05:14.800Z\",\"message\":\"boom\",\"kubernetes.pod.name\":"
	    "\"gpt-worker-2\",\"host.name\":\"node-a04\"}}";
	static const char journald[] = "{\"__REALTIME_TIMESTAMP\":\"1755190933900000\","
	    "\"_HOSTNAME\":\"gpu-b05\",\"CONTAINER_NAME\":\"k8s_bert_bert-2-t1w6z_nlp_0f1e_0\","
	    "\"MESSAGE\":[70,97,116,97,108,13]}";
	static const char cloudwatch[] = "{\"logStreamName\":\"s\",\"timestamp\":1759220117100,"
	    "\"message\":\"{\\\"log\\\":\\\"OSError: [Errno 28] No space left\\\\n\\\","
	    "\\\"kubernetes\\\":{\\\"pod_name\\\":\\\"ckpt-master-0\\\",\\\"host\\\":\\\"ip-1\\\"}}\"}";
	static const char docker[] = "{\"log\":\"two\\nlines\\n\",\"stream\":\"stderr\","
	    "\"time\":\"2016-10-20T18:39:20.57606443Z\"}";

	(void)state;
	/* Loki: labels, a UTF-16 surrogate pair, a time with its zeros trimmed */
	assert_true(take(loki, &env));
	assert_int_equal(env.kind, ENV_JSON);
	assert_true(env.decoded);
	assert_string_equal(env.pod, "llm-node-0-2-h3t8w");
	assert_string_equal(env.node, "gpu-7");
	assert_int_equal(env.index, 2);
	assert_text(&env, "[default1]:hello \xc3\xa9 \xf0\x9f\x98\x80");
	assert_time(&env, "2025-06-09 03:40:16");
	assert_int_equal(env.ts.nsec, 200000000);
	/* Elasticsearch: a hit's _source, keys with dots */
	assert_true(take(es_dotted, &env));
	assert_string_equal(env.pod, "gpt-worker-2");
	assert_string_equal(env.node, "node-a04");
	assert_int_equal(env.index, 3);
	assert_text(&env, "boom");
	/* journald: microseconds, the pod in CONTAINER_NAME, bytes as numbers */
	assert_true(take(journald, &env));
	assert_string_equal(env.pod, "bert-2-t1w6z");
	assert_string_equal(env.container, "bert");
	assert_string_equal(env.node, "gpu-b05");
	assert_text(&env, "Fatal");	/* and the \r taken off its end */
	assert_time(&env, "2025-08-14 17:02:13");
	/* CloudWatch: a Container Insights record inside the message */
	assert_true(take(cloudwatch, &env));
	assert_string_equal(env.pod, "ckpt-master-0");
	assert_string_equal(env.node, "ip-1");
	assert_int_equal(env.index, 0);
	assert_text(&env, "OSError: [Errno 28] No space left");
	assert_time(&env, "2025-09-30 08:15:17");
	/* Docker json-file: a message of two lines, its newline taken off */
	assert_true(take(docker, &env));
	assert_text(&env, "two\nlines");
	/* CloudWatch's S3 export and aws logs tail: a time, perhaps a stream
	 * name, then the record (whose own time it has none) */
	assert_true(take("2025-09-30T08:15:17.100Z {\"log\":\"x\",\"kubernetes\":"
	    "{\"pod_name\":\"ckpt-worker-0\"}}", &env));
	assert_int_equal(env.index, 1);
	assert_text(&env, "x");
	assert_time(&env, "2025-09-30 08:15:17");
	assert_true(take("2025-09-30T08:15:18.000000+00:00 ip-1-application.var.log.containers."
	    "ckpt-worker-1_default_pytorch-0.log {\"log\":\"y\",\"kubernetes\":"
	    "{\"pod_name\":\"ckpt-worker-1\"}}", &env));
	assert_int_equal(env.index, 2);
	assert_text(&env, "y");
	assert_time(&env, "2025-09-30 08:15:18");
	/* JSON that is no record, and what is not JSON */
	assert_false(take("{\"loss\": 2.1, \"step\": 3}", &env));
	assert_false(take("{'loss': 2.1, 'learning_rate': 0.0001}", &env));
	assert_false(take("{\"message\": \"unterminated", &env));
}

struct got {
	char	text[8][64];
	int	index[8];
	int	n;
};

static void
on_record(void *arg, const struct envelope *env)
{
	struct got *g = arg;

	if (g->n < 8) {
		snprintf(g->text[g->n], sizeof g->text[g->n], "%.*s", (int)env->len, env->text);
		g->index[g->n] = env->index;
	}
	g->n++;
}

static void
test_documents(void **state)
{
	static const char hits[] = "{\n  \"took\": 4,\n  \"hits\": {\n    \"hits\": [\n"
	    "      {\"_score\": 3, \"_source\": {\"@timestamp\": \"2025-07-21T22:05:14.800Z\","
	    " \"message\": \"second\", \"kubernetes\": {\"pod\": {\"name\": \"gpt-worker-2\"}}}},\n"
	    "      {\"_score\": 2, \"_source\": {\"@timestamp\": \"2025-07-21T22:05:01.000Z\","
	    " \"message\": \"first\", \"kubernetes\": {\"pod\": {\"name\": \"gpt-master-0\"}}}}\n"
	    "    ]\n  }\n}\n";
	static const char cw[] = "{\"events\": [\n {\"timestamp\": 1759220117100, \"message\": "
	    "\"later\"},\n {\"timestamp\": 1759220110000, \"message\": \"earlier\"}\n]}\n";
	static const char mixed[] = "{\"events\": [\n {\"message\": \"head\"},\n"
	    " {\"timestamp\": 1759220117000, \"message\": \"t17\"},\n"
	    " {\"message\": \"after17\"},\n"
	    " {\"timestamp\": 1759220110000, \"message\": \"t10\"}\n]}\n";
	struct got g;
	char *why = NULL;
	unsigned long line;

	(void)state;
	assert_true(envelope_is_document(hits, sizeof hits - 1));
	assert_true(envelope_is_document("[\n  {\"message\": \"x\"}\n]", 23));
	assert_false(envelope_is_document("{\"line\":\"x\",\"timestamp\":\"1\"}\n{", 30));
	assert_false(envelope_is_document("[rank0]:[E502 10:11:29.3 x.cpp:1] y\n", 36));
	assert_false(envelope_is_document("{'loss': 2.1}\n", 14));
	/* hits in score order come out oldest first */
	memset(&g, 0, sizeof g);
	assert_int_equal(envelope_document(lay, &es, hits, sizeof hits - 1, on_record, &g,
	    &why, &line), 2);
	assert_string_equal(g.text[0], "first");
	assert_int_equal(g.index[0], 0);
	assert_string_equal(g.text[1], "second");
	assert_int_equal(g.index[1], 3);
	memset(&g, 0, sizeof g);
	assert_int_equal(envelope_document(lay, &es, cw, sizeof cw - 1, on_record, &g,
	    &why, &line), 2);
	assert_string_equal(g.text[0], "earlier");
	/* a record with no time keeps its place after the one before it;
	 * the untimed ones at the head stay first */
	memset(&g, 0, sizeof g);
	assert_int_equal(envelope_document(lay, &es, mixed, sizeof mixed - 1, on_record, &g,
	    &why, &line), 4);
	assert_string_equal(g.text[0], "head");
	assert_string_equal(g.text[1], "t10");
	assert_string_equal(g.text[2], "t17");
	assert_string_equal(g.text[3], "after17");
	/* valid JSON with no records; and JSON cut short, with its line */
	assert_int_equal(envelope_document(lay, &es, "{\"a\": [1]}", 10, on_record,
	    &g, &why, &line), 0);
	assert_int_equal(envelope_document(lay, &es, "{\n\"events\": [\n{\"message\"",
	    25, on_record, &g, &why, &line), -1);
	assert_non_null(why);
	assert_int_equal(line, 3);
	free(why);
}

static void
test_newest_first(void **state)
{
	struct envstate e;
	struct envelope env;
	char line[128];
	int i;

	(void)state;
	envstate_init(&e);
	/* logcli without --forward: every record older than the one before */
	for (i = 59; i >= 0; i--) {
		snprintf(line, sizeof line, "{\"line\":\"x\",\"timestamp\":"
		    "\"2025-06-09T03:40:%02d.5Z\"}", i);
		assert_true(takes(&e, line, &env));
	}
	assert_true(envstate_backwards(&e));
	assert_false(envstate_backwards(&e));	/* said once */
	envstate_release(&e);
	/* in time order, with a few records out of it (pods interleaved) */
	envstate_init(&e);
	for (i = 0; i < 60; i++) {
		snprintf(line, sizeof line, "{\"line\":\"x\",\"timestamp\":"
		    "\"2025-06-09T03:40:%02d.5Z\"}", i % 7 == 6 ? i - 3 : i);
		assert_true(takes(&e, line, &env));
	}
	assert_false(envstate_backwards(&e));
	envstate_release(&e);
}

static void
test_bad_layouts(void **state)
{
	struct layouts *l = layouts_new();
	struct notes ns;
	static const char unknown[] = "pods:\n  - id: x\n    match: '^x-(?<index>[0-9]+)$'\n"
	    "    rank: 3\n";
	static const char noindex[] = "pods:\n  - id: x\n    match: '^x-([0-9]+)$'\n";
	static const char badre[] = "derive:\n  - from: f\n    match: '(?<pod>'\n";
	static const char toplevel[] = "fields:\n  message: [m]\n";
	static const char dupadd[] = "pods:\n  - id: x\n"
	    "    match: '^x-(?<role>worker)-(?<index>[0-9]+)$'\n"
	    "    add: {worker: 1, worker: 1048576}\n";

	(void)state;
	notes_init(&ns);
	assert_int_equal(layouts_parse(l, "a.yaml", unknown, sizeof unknown - 1, &ns), -1);
	assert_string_equal(ns.v[0].file, "a.yaml");
	assert_int_equal(ns.v[0].line, 4);
	assert_non_null(strstr(ns.v[0].text, "unknown key 'rank'"));
	assert_int_equal(layouts_parse(l, "b.yaml", noindex, sizeof noindex - 1, &ns), -1);
	assert_non_null(strstr(ns.v[1].text, "(?<index>"));
	assert_int_equal(ns.v[1].line, 3);
	assert_int_equal(layouts_parse(l, "c.yaml", badre, sizeof badre - 1, &ns), -1);
	assert_non_null(strstr(ns.v[2].text, "pattern"));
	assert_int_equal(layouts_parse(l, "d.yaml", toplevel, sizeof toplevel - 1, &ns), -1);
	assert_non_null(strstr(ns.v[3].text, "unknown key 'fields'"));
	assert_int_equal(layouts_parse(l, "e.yaml", dupadd, sizeof dupadd - 1, &ns), -1);
	assert_non_null(strstr(ns.v[4].text, "duplicate key 'worker'"));
	assert_int_equal(layouts_pod_rules(l), 0);
	notes_release(&ns);
	layouts_free(l);
}

static void
test_user_rule_first(void **state)
{
	struct layouts *l = layouts_new();
	struct notes ns;
	struct envstate e;
	static const char user[] = "pods:\n  - id: pytorchjob\n"
	    "    match: '^(?<job>.+)-(?<role>master|worker)-(?<index>[0-9]+)$'\n"
	    "  - id: mine\n    match: '^trainer-(?<index>[0-9]+)$'\n";

	(void)state;
	notes_init(&ns);
	envstate_init(&e);
	assert_int_equal(layouts_load_dir(l, TEST_SRCDIR "/rules/layouts", &ns), 0);
	assert_int_equal(layouts_parse(l, "user.yaml", user, sizeof user - 1, &ns), 0);
	/* the user's pytorchjob replaced the shipped one (no +1 for workers) */
	assert_int_equal(envelope_pod_index(l, &e, "job-worker-3", 12), 3);
	assert_int_equal(envelope_pod_index(l, &e, "trainer-9", 9), 9);
	envstate_release(&e);
	notes_release(&ns);
	layouts_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pods),
		cmocka_unit_test(test_kubectl),
		cmocka_unit_test(test_stern),
		cmocka_unit_test(test_cri),
		cmocka_unit_test(test_json_records),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_newest_first),
		cmocka_unit_test(test_bad_layouts),
		cmocka_unit_test(test_user_rule_first),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
