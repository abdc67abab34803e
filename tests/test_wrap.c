/* test_wrap.c: wrapping text and table rows by terminal cells. */
#include "config.h"

#include "testutil.h"

#include "wrap.h"

static void
test_wrap_text(void **state)
{
	struct strlist l = { NULL, 0 };

	(void)state;
	assert_int_equal(wrap_text("the quick brown fox jumps", 10, &l), 3);
	assert_string_equal(l.v[0], "the quick");
	assert_string_equal(l.v[1], "brown fox");
	assert_string_equal(l.v[2], "jumps");
	wrap_free(&l);
	/* a word longer than the width is cut */
	assert_int_equal(wrap_text("abcdefghijkl x", 5, &l), 3);
	assert_string_equal(l.v[0], "abcde");
	assert_string_equal(l.v[1], "fghij");
	assert_string_equal(l.v[2], "kl x");
	wrap_free(&l);
	/* empty text is one empty line; newlines are kept */
	assert_int_equal(wrap_text("", 10, &l), 1);
	assert_string_equal(l.v[0], "");
	wrap_free(&l);
	assert_int_equal(wrap_text("a\nb", 10, &l), 2);
	wrap_free(&l);
	/* cells, not bytes: "é" is one cell */
	assert_int_equal(wrap_text("\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 6, &l), 1);
	wrap_free(&l);
	assert_int_equal(wrap_cells("\xe2\x9c\x94 ok", 6), 4);
}

static void
test_wrap_row(void **state)
{
	struct strlist l = { NULL, 0 };
	const char *cells[3] = { "yes", "GPU utilization is low during backward",
	    "Small buckets reduce overlap" };
	int widths[3] = { 5, 12, 10 };

	(void)state;
	assert_int_equal(wrap_row(cells, widths, 3, " | ", &l), 5);
	assert_string_equal(l.v[0], "yes   | GPU          | Small");
	assert_string_equal(l.v[1], "      | utilization  | buckets");
	assert_string_equal(l.v[2], "      | is low       | reduce");
	assert_string_equal(l.v[3], "      | during       | overlap");
	assert_string_equal(l.v[4], "      | backward");	/* no trailing blanks */
	wrap_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_text),
		cmocka_unit_test(test_wrap_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
