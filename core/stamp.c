/* stamp.c: calendar arithmetic and the shared timestamp parsers. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stamp.h"

static inline int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

int64_t
stamp_days_from_civil(int y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
stamp_to_civil(int64_t sec, struct civil *c)
{
	int64_t z = (sec >= 0 ? sec : sec - 86399) / 86400;
	int64_t rem = sec - z * 86400;
	int64_t era, doe, yoe, doy, mp, y;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	c->mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	c->mon = (int)(mp < 10 ? mp + 3 : mp - 9);
	c->year = (int)(y + (c->mon <= 2));
	c->hour = (int)(rem / 3600);
	c->min = (int)(rem / 60 % 60);
	c->sec = (int)(rem % 60);
	c->nsec = 0;
	c->has_frac = 0;
}

static int
days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 ? 28 + leap : days[m - 1];
}

int
stamp_from_civil(const struct civil *c, struct stamp *out)
{
	/* Consecutive lines are mostly of the same day: its checks and its
	 * day number (divisions, slow) are done once per thread. */
	static _Thread_local int ly, lm, ld;
	static _Thread_local int64_t ldays;

	if (c->hour > 23 || c->min > 59 || c->sec > 60 || c->hour < 0 ||
	    c->min < 0 || c->sec < 0)
		return -1;
	if (c->year != ly || c->mon != lm || c->mday != ld || ly == 0) {
		if (c->mon < 1 || c->mon > 12 || c->mday < 1 || c->year < 1 ||
		    c->mday > days_in_month(c->year, c->mon))
			return -1;
		ldays = stamp_days_from_civil(c->year, c->mon, c->mday);
		ly = c->year;
		lm = c->mon;
		ld = c->mday;
	}
	out->sec = ldays * 86400 + c->hour * 3600 + c->min * 60 + c->sec;
	out->nsec = c->has_frac ? c->nsec : 0;
	out->flags = STAMP_TIME | (c->has_frac ? STAMP_FRAC : 0);
	return 0;
}

/* The year chosen for a day within 150 days of its anchor is the same for
 * every hour of that day (the choice flips only about half a year away):
 * the last such choice, per thread, answers the next line of the same
 * day against the same anchor (year-less c10 stamps: most lines of a
 * log). */
#define YEAR_MEMO_SPAN	(150 * 86400)

static _Thread_local struct {
	int64_t	anchor;
	int	mon, mday, year;
} year_memo;

int
stamp_resolve_year(struct civil *c, int64_t anchor)
{
	struct civil a;
	struct stamp s;
	int64_t best = 0, d;
	int y, besty = 0, found = 0;

	if (year_memo.year != 0 && year_memo.anchor == anchor && year_memo.mon == c->mon &&
	    year_memo.mday == c->mday) {
		c->year = year_memo.year;
		return 0;
	}
	stamp_to_civil(anchor, &a);
	for (y = a.year - 1; y <= a.year + 1; y++) {
		c->year = y;
		if (stamp_from_civil(c, &s) != 0)
			continue;
		d = s.sec > anchor ? s.sec - anchor : anchor - s.sec;
		if (!found || d < best) {
			best = d;
			besty = y;
			found = 1;
		}
	}
	c->year = besty;
	if (found && best < YEAR_MEMO_SPAN) {
		year_memo.anchor = anchor;
		year_memo.mon = c->mon;
		year_memo.mday = c->mday;
		year_memo.year = besty;
	}
	return found ? 0 : -1;
}

int
stamp_resolve_year_not_after(struct civil *c, int64_t limit)
{
	struct civil a;
	struct stamp s;
	int y;

	stamp_to_civil(limit, &a);
	for (y = a.year; y >= a.year - 1; y--) {
		c->year = y;
		if (stamp_from_civil(c, &s) == 0 && s.sec <= limit + 86400)
			return 0;
	}
	return stamp_resolve_year(c, limit);
}

int64_t
stamp_to_epoch(int64_t sec)
{
	struct civil c;
	struct tm tm;

	stamp_to_civil(sec, &c);
	memset(&tm, 0, sizeof tm);
	tm.tm_year = c.year - 1900;
	tm.tm_mon = c.mon - 1;
	tm.tm_mday = c.mday;
	tm.tm_hour = c.hour;
	tm.tm_min = c.min;
	tm.tm_sec = c.sec;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

void
stamp_from_epoch(int64_t epoch, int32_t nsec, struct stamp *out)
{
	time_t t = (time_t)epoch;
	struct tm tm;
	struct civil c;

	if (localtime_r(&t, &tm) == NULL) {
		out->sec = epoch;
	} else {
		c.year = tm.tm_year + 1900;
		c.mon = tm.tm_mon + 1;
		c.mday = tm.tm_mday;
		c.hour = tm.tm_hour;
		c.min = tm.tm_min;
		c.sec = tm.tm_sec;
		c.has_frac = 0;
		c.nsec = 0;
		stamp_from_civil(&c, out);
	}
	out->nsec = nsec;
	out->flags = STAMP_TIME | STAMP_EPOCH | (nsec ? STAMP_FRAC : 0);
}

int
stamp_cmp(const struct stamp *a, const struct stamp *b)
{
	int at = (a->flags & STAMP_TIME) != 0, bt = (b->flags & STAMP_TIME) != 0;

	if (at != bt)
		return at ? -1 : 1;	/* timeless sorts last */
	if (!at)
		return 0;
	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	if (a->nsec != b->nsec)
		return a->nsec < b->nsec ? -1 : 1;
	return 0;
}

static size_t
parse_frac(const char *p, size_t n, struct civil *c)
{
	static const int32_t scale[10] = { 1000000000, 100000000, 10000000,
	    1000000, 100000, 10000, 1000, 100, 10, 1 };
	size_t i = 0;
	int32_t v = 0;

	if (n < 2 || (p[0] != '.' && p[0] != ','))
		return 0;
	/* milliseconds, Python logging's ",123": most stamps */
	if (n >= 4 && isdig(p[1]) && isdig(p[2]) && isdig(p[3]) && (n == 4 || !isdig(p[4]))) {
		c->nsec = ((p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0')) * 1000000;
		c->has_frac = 1;
		return 4;
	}
	for (i = 1; i < n && isdig(p[i]); i++)
		if (i <= 9)
			v = v * 10 + (p[i] - '0');
	if (i == 1)
		return 0;
	c->nsec = v * scale[i - 1 < 9 ? i - 1 : 9];
	c->has_frac = 1;
	return i;
}

/* Two digits at p, or -1. */
static inline int
two(const char *p)
{
	unsigned a = (unsigned char)p[0] - '0', b = (unsigned char)p[1] - '0';

	return a < 10 && b < 10 ? (int)(a * 10 + b) : -1;
}

size_t
stamp_parse_hms(const char *p, size_t n, struct civil *c)
{
	if (n < 8 || p[2] != ':' || p[5] != ':' ||
	    (c->hour = two(p)) < 0 || (c->min = two(p + 3)) < 0 ||
	    (c->sec = two(p + 6)) < 0 ||
	    c->hour > 23 || c->min > 59 || c->sec > 60)
		return 0;
	c->has_frac = 0;
	c->nsec = 0;
	return 8 + parse_frac(p + 8, n - 8, c);
}

static size_t
parse_date(const char *p, size_t n, struct civil *c)
{
	int hi, lo;

	if (n < 10 || p[4] != '-' || p[7] != '-' ||
	    (hi = two(p)) < 0 || (lo = two(p + 2)) < 0 ||
	    (c->mon = two(p + 5)) < 0 || (c->mday = two(p + 8)) < 0 ||
	    c->mon < 1 || c->mon > 12 || c->mday < 1 || c->mday > 31)
		return 0;
	c->year = hi * 100 + lo;
	return 10;
}

size_t
stamp_parse_iso(const char *p, size_t n, struct civil *c)
{
	/* Lines of the same minute repeat the first 17 bytes: read once (per
	 * thread); the seconds are read each time. */
	static _Thread_local char last[17];
	static _Thread_local struct civil lastc;
	size_t i, t;

	if (n >= 19 && lastc.year != 0 && memcmp(p, last, 17) == 0) {
		*c = lastc;
		if ((c->sec = two(p + 17)) < 0 || c->sec > 60)
			return 0;
		i = 19 + parse_frac(p + 19, n - 19, c);
	} else {
		if (parse_date(p, n, c) == 0 || n < 19 || (p[10] != ' ' && p[10] != 'T'))
			return 0;
		if ((t = stamp_parse_hms(p + 11, n - 11, c)) == 0)
			return 0;
		i = 11 + t;
		memcpy(last, p, 17);
		lastc = *c;
		lastc.has_frac = 0;
		lastc.nsec = 0;
	}
	/* A zone is read and dropped: logs of one job share a zone. */
	if (i < n && p[i] == 'Z')
		i++;
	else if (i + 2 < n && (p[i] == '+' || p[i] == '-') &&
	    isdig(p[i + 1]) && isdig(p[i + 2])) {
		i += 3;
		if (i < n && p[i] == ':')
			i++;
		if (i + 1 < n && isdig(p[i]) && isdig(p[i + 1]))
			i += 2;
	}
	return i;
}

size_t
stamp_parse_torchrun(const char *p, size_t n, struct civil *c)
{
	size_t t;

	if (parse_date(p, n, c) == 0 || n < 19 || p[10] != '_')
		return 0;
	if ((t = stamp_parse_hms(p + 11, n - 11, c)) == 0)
		return 0;
	return 11 + t;
}

void
stamp_format(const struct stamp *s, int with_date, char *out, size_t len)
{
	struct civil c;

	if (!(s->flags & STAMP_TIME)) {
		snprintf(out, len, "?");
		return;
	}
	stamp_to_civil(s->sec, &c);
	if (with_date)
		snprintf(out, len, "%04d-%02d-%02d %02d:%02d:%02d", c.year,
		    c.mon, c.mday, c.hour, c.min, c.sec);
	else
		snprintf(out, len, "%02d:%02d:%02d", c.hour, c.min, c.sec);
}

void
stamp_format_span(int64_t ns, char *out, size_t len)
{
	int64_t s;

	if (ns < 0)
		ns = -ns;
	s = ns / 1000000000;
	if (ns >= INT64_MAX - 1)	/* saturated: centuries apart */
		snprintf(out, len, "centuries");
	else if (s >= 366LL * 86400)	/* stamps that far apart are not one run's clocks */
		snprintf(out, len, "%lld years", (long long)((s + 15778800) / 31557600));
	else if (s == 0)
		snprintf(out, len, "%lld ms", (long long)(ns / 1000000));
	else if (s < 60)
		snprintf(out, len, "%lld s", (long long)s);
	else if (s < 3600)
		snprintf(out, len, "%lld min %lld s", (long long)(s / 60),
		    (long long)(s % 60));
	else if (s < 86400)
		snprintf(out, len, "%lld h %lld min", (long long)(s / 3600),
		    (long long)(s / 60 % 60));
	else
		snprintf(out, len, "%lld d %lld h", (long long)(s / 86400),
		    (long long)(s / 3600 % 24));
}
