/* fuzz_envelope.c: what Kubernetes and the log stores wrap around a line,
 * taken off with the shipped layouts ($RW_RULES/layouts, else the source
 * tree's rules/layouts, loaded once): every line of the input through
 * envelope_take with one envstate, as a source hands a file's lines over,
 * and the whole input through envelope_is_document and envelope_document.
 * envcheck.h checks what envelope.h promises of each envelope: its text
 * in the raw line, or in the scratch when decoded, names that end within
 * ENVELOPE_NAME_MAX, an index of -1 or a rank the shipped pod rules can
 * give. */
#include "config.h"

#include "fuzz.h"
#include "envcheck.h"

#include "notes.h"

#ifndef TEST_SRCDIR
#define TEST_SRCDIR "."
#endif

/* The largest index a pod rule gives: a number up to 2^20, and an add: of
 * up to 2^20 once (the shipped rules name each role once). */
#define FZ_INDEX_MAX	(2L << 20)

static const struct layouts *
fz_layouts(void)
{
	static struct layouts *lay;
	struct notes ns;
	const char *rules;
	char *dir;
	size_t i, n;

	if (lay != NULL)
		return lay;
	rules = getenv("RW_RULES");
	if (rules == NULL || *rules == '\0')
		rules = TEST_SRCDIR "/rules";
	n = strlen(rules) + sizeof "/layouts";
	dir = malloc(n);
	FZ_CHECK(dir != NULL);
	snprintf(dir, n, "%s/layouts", rules);
	notes_init(&ns);
	lay = layouts_new();
	/* a missing folder is no error to layouts_load_dir; no pod rules is */
	if (layouts_load_dir(lay, dir, &ns) != 0 || layouts_pod_rules(lay) == 0) {
		fprintf(stderr, "fuzz: the layouts in %s do not load (set RW_RULES):\n", dir);
		for (i = 0; i < ns.n; i++) {
			char *s = note_format(&ns.v[i]);

			fprintf(stderr, "  %s\n", s);
			free(s);
		}
		exit(2);
	}
	notes_release(&ns);
	free(dir);
	return lay;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct layouts *lay = fz_layouts();
	char *whole;

	(void)fz_take_lines(lay, (const char *)data, size, FZ_INDEX_MAX);
	whole = fz_copy(data, size);
	(void)fz_document(lay, whole, size, FZ_INDEX_MAX);
	free(whole);
	return 0;
}
