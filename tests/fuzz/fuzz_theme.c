/* fuzz_theme.c: a colour theme file's text, through theme_parse (what
 * theme_load does once it has read the file). A theme that loads has a
 * name and every role's colours in range; one refused says why. */
#include "config.h"

#include "fuzz.h"

#include "theme.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct notes ns;
	struct theme *t;
	int r;

	notes_init(&ns);
	t = theme_parse("fuzz.yaml", text, size, &ns);
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
	free(text);
	return 0;
}
