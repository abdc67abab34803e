/* test_theme.c: themes are data: every shipped theme loads, bad ones are
 * refused with file, line and column. Also the settings file. */
#include "config.h"

#include "testutil.h"

#include <dirent.h>

#include "config_file.h"
#include "theme.h"

static void
test_shipped_themes(void **state)
{
	const char *names[] = { "dark", "light", "high-contrast", "mono" };
	struct notes ns;
	size_t i;
	char path[512];

	(void)state;
	notes_init(&ns);
	for (i = 0; i < 4; i++) {
		struct theme *t;

		snprintf(path, sizeof path, "%s/themes/%s.yaml", TEST_SRCDIR, names[i]);
		t = theme_load(path, &ns);
		assert_non_null(t);
		assert_string_equal(t->name, names[i]);
		theme_free(t);
	}
	assert_int_equal(ns.n, 0);
	notes_release(&ns);
}

static void
test_bad_themes(void **state)
{
	char *dir = tu_tmpdir(), path[512];
	struct notes ns;
	struct theme *t;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "a.yaml", "name: a\nroles:\n  initiating: {fg: reddish}\n");
	snprintf(path, sizeof path, "%s/a.yaml", dir);
	assert_null(theme_load(path, &ns));
	assert_int_equal(ns.v[0].line, 3);
	assert_non_null(strstr(ns.v[0].text, "unknown colour 'reddish'"));
	TU_WRITE(dir, "b.yaml", "name: b\nroles:\n  initiatin: {fg: red}\n");
	snprintf(path, sizeof path, "%s/b.yaml", dir);
	assert_null(theme_load(path, &ns));
	assert_non_null(strstr(ns.v[1].text, "unknown role 'initiatin'"));
	/* a role left out takes normal's style; colours by number */
	TU_WRITE(dir, "c.yaml", "name: c\nroles:\n  normal: {fg: 244, bg: default, attrs: bold}\n");
	snprintf(path, sizeof path, "%s/c.yaml", dir);
	t = theme_load(path, &ns);
	assert_non_null(t);
	assert_int_equal(t->style[TR_SUSPECT].fg, 244);
	assert_int_equal(t->style[TR_SUSPECT].bg, -1);
	assert_int_equal(t->style[TR_SUSPECT].attrs, THEME_BOLD);
	theme_free(t);
	/* a key given twice, at any level, is an error at its second place */
	TU_WRITE(dir, "d.yaml", "name: d\nname: e\nroles:\n  normal: {fg: red}\n");
	snprintf(path, sizeof path, "%s/d.yaml", dir);
	assert_null(theme_load(path, &ns));
	assert_non_null(strstr(ns.v[ns.n - 1].text, "duplicate key 'name'"));
	assert_int_equal(ns.v[ns.n - 1].line, 2);
	TU_WRITE(dir, "e.yaml", "name: e\nroles:\n  normal: {fg: red, fg: blue}\n");
	snprintf(path, sizeof path, "%s/e.yaml", dir);
	assert_null(theme_load(path, &ns));
	assert_non_null(strstr(ns.v[ns.n - 1].text, "duplicate key 'fg'"));
	assert_int_equal(theme_color("bright-red"), 9);
	assert_int_equal(theme_color("256"), -2);
	notes_release(&ns);
	tu_rmdir(dir);
}

static void
test_config_file(void **state)
{
	char *dir = tu_tmpdir(), path[512];
	struct notes ns;
	struct config c;

	(void)state;
	notes_init(&ns);
	TU_WRITE(dir, "config.yaml", "theme: light\nrules: [/a, /b]\n");
	snprintf(path, sizeof path, "%s/config.yaml", dir);
	assert_int_equal(config_read(&c, path, &ns), 0);
	assert_string_equal(c.theme, "light");
	assert_int_equal(c.rules.n, 2);
	config_release(&c);
	TU_WRITE(dir, "config.yaml", "colour: blue\n");
	assert_int_equal(config_read(&c, path, &ns), -1);
	assert_non_null(strstr(ns.v[0].text, "unknown setting 'colour'"));
	config_release(&c);
	/* a setting given twice is an error naming its second place (it
	 * once left a NULL rules entry, or wrote past a one-slot array) */
	TU_WRITE(dir, "config.yaml", "rules: [/a]\nrules: [/b]\n");
	assert_int_equal(config_read(&c, path, &ns), -1);
	assert_non_null(strstr(ns.v[ns.n - 1].text, "duplicate setting 'rules'"));
	assert_int_equal(ns.v[ns.n - 1].line, 2);
	assert_int_equal(c.rules.n, 0);
	config_release(&c);
	TU_WRITE(dir, "config.yaml", "rules: a\nrules: b\n");
	assert_int_equal(config_read(&c, path, &ns), -1);
	assert_int_equal(c.rules.n, 0);
	config_release(&c);
	snprintf(path, sizeof path, "%s/none.yaml", dir);
	assert_int_equal(config_read(&c, path, &ns), 0);	/* no file: defaults */
	config_release(&c);
	notes_release(&ns);
	tu_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_themes),
		cmocka_unit_test(test_bad_themes),
		cmocka_unit_test(test_config_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
