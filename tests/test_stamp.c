/* test_stamp.c: calendar arithmetic, the shared parsers, year recovery. */
#include "config.h"

#include "testutil.h"

#include "stamp.h"

static int64_t
sec_of(int y, int mo, int d, int h, int mi, int s)
{
	struct civil c = { y, mo, d, h, mi, s, 0, 0 };
	struct stamp st;

	assert_int_equal(stamp_from_civil(&c, &st), 0);
	return st.sec;
}

static void
test_civil_roundtrip(void **state)
{
	struct civil c;
	int64_t t;

	(void)state;
	assert_int_equal(sec_of(1970, 1, 1, 0, 0, 0), 0);
	assert_int_equal(sec_of(2024, 2, 29, 23, 59, 59), 1709251199);
	for (t = -86400LL * 400; t < 86400LL * 366 * 80; t += 86400LL * 37 + 3601) {
		stamp_to_civil(t, &c);
		assert_int_equal(sec_of(c.year, c.mon, c.mday, c.hour, c.min, c.sec), t);
	}
}

static void
test_parsers(void **state)
{
	struct civil c;

	(void)state;
	assert_int_equal(stamp_parse_iso("2024-05-01 12:00:00,123 INFO", 28, &c), 23);
	assert_int_equal(c.year, 2024);
	assert_int_equal(c.nsec, 123000000);
	assert_int_equal(stamp_parse_iso("2024-05-01T12:00:00.5+02:00 x", 29, &c), 27);
	assert_int_equal(stamp_parse_iso("2024-05-01T12:00:00Z", 20, &c), 20);
	assert_int_equal(stamp_parse_iso("2024-13-01 12:00:00", 19, &c), 0);
	assert_int_equal(stamp_parse_iso("2024-05-01 25:00:00", 19, &c), 0);
	assert_int_equal(stamp_parse_iso("2024-05-01", 10, &c), 0);	/* no time */
	assert_int_equal(stamp_parse_torchrun("2024-06-16_20:34:34", 19, &c), 19);
	assert_int_equal(c.hour, 20);
	assert_int_equal(stamp_parse_hms("12:0", 4, &c), 0);	/* cut short */
	assert_int_equal(stamp_parse_hms("", 0, &c), 0);
}

/* Stamps of one minute in a row (read once up to the seconds, then only
 * their seconds and fraction): each reads as it would alone. */
static void
test_parsers_same_minute(void **state)
{
	static const struct {
		const char	*s;
		size_t		 len;
		int		 min, sec;
		int32_t		 nsec;
		int		 frac;
	} v[] = {
		{ "2024-05-01 12:00:07,123 x", 23, 0, 7, 123000000, 1 },
		{ "2024-05-01 12:00:59.5 x", 21, 0, 59, 500000000, 1 },
		{ "2024-05-01 12:00:61,000", 0, 0, 0, 0, 0 },	/* no such second */
		{ "2024-05-01 12:00:1x,000", 0, 0, 0, 0, 0 },
		{ "2024-05-01 12:00:08,1234 x", 24, 0, 8, 123400000, 1 },
		{ "2024-05-01 12:00:08,12 x", 22, 0, 8, 120000000, 1 },
		{ "2024-05-01 12:00:08,123456789123 x", 32, 0, 8, 123456789, 1 },
		{ "2024-05-01 12:00:09 x", 19, 0, 9, 0, 0 },
		{ "2024-05-01 12:00:09,", 19, 0, 9, 0, 0 },	/* a comma, no digits */
		{ "2024-05-01 12:01:00,000", 23, 1, 0, 0, 1 },
		{ "2024-05-01 12:01:05,5", 21, 1, 5, 500000000, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof v / sizeof *v; i++) {
		struct civil c;

		memset(&c, 0xa5, sizeof c);
		assert_int_equal(stamp_parse_iso(v[i].s, strlen(v[i].s), &c), v[i].len);
		if (v[i].len == 0)
			continue;
		assert_int_equal(c.year, 2024);
		assert_int_equal(c.mday, 1);
		assert_int_equal(c.hour, 12);
		assert_int_equal(c.min, v[i].min);
		assert_int_equal(c.sec, v[i].sec);
		assert_int_equal(c.has_frac, v[i].frac);
		assert_int_equal(c.nsec, v[i].nsec);
	}
}

static void
test_year_recovery_across_new_year(void **state)
{
	struct civil c = { 0, 1, 2, 3, 4, 5, 0, 0 };
	int64_t anchor = sec_of(2024, 12, 31, 23, 0, 0);

	(void)state;
	assert_int_equal(stamp_resolve_year(&c, anchor), 0);
	assert_int_equal(c.year, 2025);	/* January after a late-December anchor */
	c.mon = 12;
	c.mday = 30;
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 1, 2, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2024);
	c.mon = 2;
	c.mday = 29;	/* only leap years have it */
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 3, 1, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2024);
	/* the same day again, same anchor: the same year (remembered) */
	c.year = 0;
	c.hour = 17;
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 3, 1, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2024);
	/* half a year from the anchor the hour decides, and a day's first
	 * answer is not its last */
	c.mon = 7;
	c.mday = 2;
	c.hour = 23;
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 1, 1, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2024);
	c.hour = 0;
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 1, 1, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2025);
	c.hour = 23;
	assert_int_equal(stamp_resolve_year(&c, sec_of(2025, 1, 1, 0, 0, 0)), 0);
	assert_int_equal(c.year, 2024);
}

static void
test_format_span(void **state)
{
	char s[40];

	(void)state;
	{
		char big[40];

		stamp_format_span(INT64_MAX, big, sizeof big);	/* saturated: years 0001 and 9999 */
		assert_string_equal(big, "centuries");
		stamp_format_span(3LL * 365 * 86400 * 1000000000LL, big, sizeof big);
		assert_string_equal(big, "3 years");
	}
	stamp_format_span(600LL * 1000000000, s, sizeof s);
	assert_string_equal(s, "10 min 0 s");
	stamp_format_span(350LL * 1000000, s, sizeof s);
	assert_string_equal(s, "350 ms");
	stamp_format_span(-3LL * 1000000000, s, sizeof s);
	assert_string_equal(s, "3 s");
	stamp_format_span(90000LL * 1000000000, s, sizeof s);
	assert_string_equal(s, "1 d 1 h");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_civil_roundtrip),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_parsers_same_minute),
		cmocka_unit_test(test_year_recovery_across_new_year),
		cmocka_unit_test(test_format_span),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
