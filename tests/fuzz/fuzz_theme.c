/* fuzz_theme.c: a colour theme file, loaded with theme_load. A theme that
 * loads has a name and every role's colours in range. */
#include "config.h"

#include "fuzz.h"

#include "theme.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dir = fz_tmpdir(), *path;
	struct notes ns;
	struct theme *t;
	int r;

	notes_init(&ns);
	path = fz_write(dir, "fuzz.yaml", data, size);
	t = theme_load(path, &ns);
	if (t != NULL) {
		FZ_CHECK(t->name != NULL);
		for (r = 0; r < TR__COUNT; r++) {
			FZ_CHECK(t->style[r].fg >= -1 && t->style[r].fg <= 255);
			FZ_CHECK(t->style[r].bg >= -1 && t->style[r].bg <= 255);
			FZ_CHECK(theme_role_name((enum theme_role)r) != NULL);
		}
	} else
		FZ_CHECK(ns.n > 0);	/* a theme refused says why */
	theme_free(t);
	notes_release(&ns);
	free(path);
	fz_rmtree(dir);
	return 0;
}
