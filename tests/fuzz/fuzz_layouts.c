/* fuzz_layouts.c: a layouts file's text (a .yaml file of rules/layouts) through
 * layouts_parse, up to the input's first 0xff byte (which YAML cannot
 * hold); what follows it, or a few lines of each known shape when there is
 * no 0xff, is then read with what loaded: line by line through
 * envelope_take and whole through envelope_document, every envelope
 * checked as fuzz_envelope checks them (envcheck.h), save the index's
 * upper bound, which a file's add: sets. A file refused says why; one
 * loaded twice into the same layouts loads again (its pod rules replace
 * their namesakes). */
#include "config.h"

#include <limits.h>

#include "fuzz.h"
#include "envcheck.h"

#include "notes.h"

/* Lines in each shape envelope.c knows, the pod names in the ones the
 * shipped pod rules know. */
static const char fz_lines[] =
    "[pod/train-worker-0/pytorch] 2025-07-21T22:05:14.800000000Z step 1\n"
    "train-master-0 pytorch 2025-07-21T22:05:14Z step 2\n"
    "\033[96mllm-node-0-3-x7k2p\033[0m \033[32mtrainer\033[0m step 3\n"
    "2025-07-21T22:05:14.800Z stderr F step 4\n"
    "2025-07-21T22:05:14.800Z stdout P step 5 (part)\n"
    "{\"line\":\"step 6\",\"timestamp\":\"2025-07-21T22:05:15Z\",\"labels\":{\"pod\":\"bert-2-t1w6z\","
    "\"node_name\":\"gpu-7\",\"container\":\"c\",\"filename\":\"/var/log/pods/ns_p-1-abcde_u/c/0.log\"}}\n"
    "{\"_source\":{\"@timestamp\":\"2025-07-21T22:05:16Z\",\"message\":\"step 7\","
    "\"kubernetes.pod.name\":\"train-worker-3\",\"kubernetes.node.name\":\"n1\"}}\n"
    "{\"MESSAGE\":[115,116,101,112,32,56],\"__REALTIME_TIMESTAMP\":\"1753135517000000\","
    "\"_HOSTNAME\":\"n2\",\"CONTAINER_NAME\":\"k8s_c_train-worker-1_ns_uid_0\"}\n"
    "2025-07-21T22:05:18.000Z {\"message\":\"step 9\",\"logStreamName\":\"a.containers.p-0-abcde_ns_c-"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.log\"}\n"
    "{\"log\":\"{\\\"message\\\":\\\"step 10\\\",\\\"time\\\":1753135519.5}\\n\",\"time\":\"x\"}\n";

static const char fz_doc[] =
    "{\"hits\":{\"hits\":[{\"_source\":{\"@timestamp\":\"2025-07-21T22:05:14Z\",\"message\":\"b\","
    "\"kubernetes\":{\"pod\":{\"name\":\"gpt-worker-2\"}}}},{\"_source\":{\"message\":\"a\"}}]},"
    "\"events\":[{\"timestamp\":1753135517000,\"message\":\"c\",\"line\":\"d\"}]}";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = memchr(data, 0xff, size);
	size_t ylen = cut != NULL ? (size_t)(cut - data) : size;
	char *text = fz_copy(data, ylen), *rest;
	struct layouts *lay = layouts_new();
	struct notes ns;
	size_t i;

	notes_init(&ns);
	if (layouts_parse(lay, "fuzz-layouts.yaml", text, ylen, &ns) != 0) {
		FZ_CHECK(ns.errors > 0);	/* refused, it says why */
		goto out;
	}
	for (i = 0; i < ns.n; i++)
		FZ_CHECK(ns.v[i].level != NOTE_ERROR);
	/* again: the same rules, each replacing its namesake */
	i = layouts_pod_rules(lay);
	FZ_CHECK(layouts_parse(lay, "fuzz-layouts.yaml", text, ylen, &ns) == 0);
	FZ_CHECK(layouts_pod_rules(lay) == i);
	if (cut != NULL) {
		size_t n = size - ylen - 1;

		rest = fz_copy(cut + 1, n);
		(void)fz_take_lines(lay, rest, n, INT_MAX);
		(void)fz_document(lay, rest, n, INT_MAX);
		free(rest);
	} else {
		(void)fz_take_lines(lay, fz_lines, sizeof fz_lines - 1, INT_MAX);
		rest = fz_copy(fz_doc, sizeof fz_doc - 1);
		(void)fz_document(lay, rest, sizeof fz_doc - 1, INT_MAX);
		free(rest);
	}
out:
	layouts_free(lay);
	notes_release(&ns);
	free(text);
	return 0;
}
