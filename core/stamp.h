/* stamp.h: timestamps as the logs print them.
 * A stamp counts seconds since 1970-01-01 00:00 of the printing host's
 * wall clock, with no zone applied ("naive local time"): logs of one job
 * print local time, so stamps of different formats compare directly.
 * Epoch values (error.json, abseil) are turned into local time with the
 * zone of the machine rankwatch runs on (TZ). */
#ifndef RW_STAMP_H
#define RW_STAMP_H

#include <stddef.h>
#include <stdint.h>

#define STAMP_TIME	0x01	/* the stamp holds a time */
#define STAMP_NOYEAR	0x02	/* the text had no year; it was recovered */
#define STAMP_YEARGUESS	0x04	/* ... from the file's mtime, not a dated line */
#define STAMP_INHERITED	0x08	/* the line had no time; the previous line's */
#define STAMP_EPOCH	0x10	/* converted from a UTC epoch */
#define STAMP_REPORTED	0x20	/* a launcher's report of when it noticed */
#define STAMP_FRAC	0x40	/* nsec is a real sub-second part */

struct stamp {
	int64_t		sec;
	int32_t		nsec;
	uint16_t	flags;
};

/* A time of the line's own: what a rank's first and last activity, the
 * timeline and the bound of a borrowed time are made of (not a borrowed
 * one, not a launcher's report of when it noticed). */
static inline int
stamp_own(const struct stamp *s)
{
	return (s->flags & STAMP_TIME) && !(s->flags & (STAMP_INHERITED | STAMP_REPORTED));
}

/* What a parser read; year 0 means the text had none. */
struct civil {
	int	year, mon, mday, hour, min, sec;
	int32_t	nsec;
	int	has_frac;
};

int64_t	 stamp_days_from_civil(int y, int m, int d);
/* Seconds for a complete civil time; -1 when a field is out of range. */
int	 stamp_from_civil(const struct civil *c, struct stamp *out);
/* Fill a year-less civil time with the year (anchor's year -1, 0 or +1)
 * that puts it closest to anchor (a stamp's sec). */
int	 stamp_resolve_year(struct civil *c, int64_t anchor);
/* The same, when the anchor is a file's mtime: a line was written before
 * its file was last changed, so never a year that puts it later (a day of
 * slack for zones). */
int	 stamp_resolve_year_not_after(struct civil *c, int64_t limit);
/* A stamp's naive local seconds back to UTC epoch seconds (the zone of
 * the machine, TZ), e.g. to set a file's mtime. */
int64_t	 stamp_to_epoch(int64_t sec);
/* UTC epoch seconds to a stamp in local time. */
void	 stamp_from_epoch(int64_t epoch, int32_t nsec, struct stamp *out);
void	 stamp_to_civil(int64_t sec, struct civil *c);
int	 stamp_cmp(const struct stamp *a, const struct stamp *b);

/* Parsers: each reads one format at p (n bytes) and returns the number of
 * bytes of the timestamp, 0 when p does not start with that format. */
size_t	 stamp_parse_iso(const char *p, size_t n, struct civil *c);	/* 2024-05-01[T ]12:00:00[.,frac][Z|+hh:mm] */
size_t	 stamp_parse_hms(const char *p, size_t n, struct civil *c);	/* 12:00:00[.frac] */
size_t	 stamp_parse_torchrun(const char *p, size_t n, struct civil *c);	/* 2024-06-16_20:34:34 */

/* "12:03:01", "2024-06-16 12:03:01" (with_date) or "?" into out (>= 32 bytes). */
void	 stamp_format(const struct stamp *s, int with_date, char *out, size_t len);
/* "9 min 58 s", "1 h 4 min", "350 ms" */
void	 stamp_format_span(int64_t ns, char *out, size_t len);

#endif
