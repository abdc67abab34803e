/* test_buf.c: growable strings and the escaping all output relies on. */
#include "config.h"

#include "testutil.h"

#include "buf.h"

static void
test_empty_and_growth(void **state)
{
	struct buf b = BUF_INIT;
	char *s;
	int i;

	(void)state;
	s = buf_detach(&b);	/* an empty buffer detaches as "" */
	assert_string_equal(s, "");
	free(s);
	for (i = 0; i < 10000; i++)
		buf_printf(&b, "%d,", i % 10);
	assert_int_equal(b.len, 20000);
	assert_int_equal(b.s[b.len], '\0');
	buf_clear(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.s, "");
	buf_release(&b);
	assert_null(b.s);
}

static void
test_safe_escapes_terminal_controls(void **state)
{
	struct buf b = BUF_INIT;
	/* ESC [ 2 J (clear screen), BEL, a C1 CSI (U+009B), invalid UTF-8 */
	const char in[] = "a\x1b[2Jb\x07 c\xc2\x9b" "d\xff\xfe" "\xc3\xa9";

	(void)state;
	buf_add_safe(&b, in, sizeof in - 1);
	assert_string_equal(b.s, "a^[[2Jb^G c\\xc2\\x9bd\\xff\\xfe\xc3\xa9");
	assert_null(strchr(b.s, 0x1b));
	buf_release(&b);
}

static void
test_json_is_valid_utf8(void **state)
{
	struct buf b = BUF_INIT;
	const char in[] = "q\"b\\s\nt\t\x01\xff\xe2\x82\xac";

	(void)state;
	buf_add_json(&b, in, sizeof in - 1);
	assert_string_equal(b.s, "q\\\"b\\\\s\\nt\\t\\u0001\\ufffd\xe2\x82\xac");
	buf_release(&b);
}

static void
test_utf8_seqlen(void **state)
{
	(void)state;
	assert_int_equal(utf8_seqlen((const unsigned char *)"A", 1), 1);
	assert_int_equal(utf8_seqlen((const unsigned char *)"\xc3\xa9", 2), 2);
	assert_int_equal(utf8_seqlen((const unsigned char *)"\xc3", 1), 0);	/* cut */
	assert_int_equal(utf8_seqlen((const unsigned char *)"\xed\xa0\x80", 3), 0);	/* surrogate */
	assert_int_equal(utf8_seqlen((const unsigned char *)"\xe0\x80\x80", 3), 0);	/* overlong */
	assert_int_equal(utf8_seqlen((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_growth),
		cmocka_unit_test(test_safe_escapes_terminal_controls),
		cmocka_unit_test(test_json_is_valid_utf8),
		cmocka_unit_test(test_utf8_seqlen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
