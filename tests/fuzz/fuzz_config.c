/* fuzz_config.c: the user's settings file, read with config_read. */
#include "config.h"

#include "fuzz.h"

#include "config_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dir = fz_tmpdir(), *path;
	struct notes ns;
	struct config c;
	size_t i;

	notes_init(&ns);
	path = fz_write(dir, "config.yaml", data, size);
	if (config_read(&c, path, &ns) == 0) {
		for (i = 0; i < c.rules.n; i++)
			FZ_CHECK(c.rules.v[i] != NULL);
	} else
		FZ_CHECK(ns.n > 0);	/* settings refused say why */
	config_release(&c);
	notes_release(&ns);
	free(path);
	fz_rmtree(dir);
	return 0;
}
