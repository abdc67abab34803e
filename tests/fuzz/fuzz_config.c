/* fuzz_config.c: the user's settings file's text, through config_parse
 * (what config_read does once it has read the file). */
#include "config.h"

#include "fuzz.h"

#include "config_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct notes ns;
	struct config c;
	size_t i;

	notes_init(&ns);
	if (config_parse(&c, "config.yaml", text, size, &ns) == 0) {
		for (i = 0; i < c.rules.n; i++)
			FZ_CHECK(c.rules.v[i] != NULL);
	} else
		FZ_CHECK(ns.n > 0);	/* settings refused say why */
	config_release(&c);
	notes_release(&ns);
	free(text);
	return 0;
}
