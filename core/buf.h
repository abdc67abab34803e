/* buf.h: a growable byte string, always NUL terminated. */
#ifndef RW_BUF_H
#define RW_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

struct buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
	/* when set, buf_drain hands what was written so far to it (a long
	 * report goes out as it is made, not whole) */
	void	(*drain)(void *arg, const char *s, size_t n);
	void	*drain_arg;
};

#define BUF_INIT { NULL, 0, 0, NULL, NULL }
#define BUF_DRAIN_AT	(64 * 1024)

void	 buf_init(struct buf *b);
void	 buf_release(struct buf *b);
void	 buf_clear(struct buf *b);
void	 buf_add(struct buf *b, const void *p, size_t n);
void	 buf_adds(struct buf *b, const char *s);
void	 buf_addc(struct buf *b, char c);
void	 buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* At a point where the text so far is final: give it to b->drain when
 * there is at least BUF_DRAIN_AT of it, and empty the buffer. */
void	 buf_drain(struct buf *b);
/* qsort and bsearch order of an array of strings (char * elements). */
int	 buf_strp_cmp(const void *a, const void *b);
/* Give the string to the caller (who frees it) and reset the buffer. */
char	*buf_detach(struct buf *b);
/* One display unit of untrusted bytes, as the console and the text
 * reports show it: nothing that could drive a terminal gets through. */
enum vis_kind {
	VIS_TEXT,	/* p[0..len): one printable character (ASCII or UTF-8) */
	VIS_TAB,	/* a tab, shown as one space */
	VIS_CTRL,	/* a C0 control or DEL, shown as show ("^[", "^?") */
	VIS_HEX,	/* a byte of invalid UTF-8, a C1 control, or (utf8 0)
			 * any byte >= 0x80: shown as show ("\x9b") */
};
struct vis {
	enum vis_kind	kind;
	size_t		len;		/* bytes of p taken, >= 1 */
	char		show[5];	/* VIS_CTRL, VIS_HEX: printable ASCII */
};
/* The unit at p[0..n), n > 0. utf8 0: the terminal is not UTF-8. */
void	 vis_next(const unsigned char *p, size_t n, int utf8, struct vis *v);
/* Append p[0..n) as vis_next shows it (UTF-8 terminal). */
void	 buf_add_safe(struct buf *b, const char *p, size_t n);
/* Append p[0..n) for a Markdown table cell or inline code span: made safe
 * as above, '|' escaped (and a backslash run before it doubled, so the
 * pipe stays escaped), '`' turned into '\''. */
void	 buf_add_md(struct buf *b, const char *p, size_t n);
/* Append p[0..n) as the inside of a JSON string (invalid UTF-8 -> U+FFFD). */
void	 buf_add_json(struct buf *b, const char *p, size_t n);
/* Append s as a JSON string, quotes included; null when s is NULL. */
void	 buf_add_jstr(struct buf *b, const char *s);

/* Read the file at path into b (cleared first); at most limit bytes, else
 * -1 with errno EFBIG. -1 with errno on any other failure. */
int	 buf_slurp(struct buf *b, const char *path, size_t limit);
/* n bytes of the file at path from offset off into dst (opened and
 * closed again: no descriptor is kept): how many were read, or -1. */
ssize_t	 read_file_at(const char *path, void *dst, size_t n, uint64_t off);

/* "213.4 KiB", "1.0 GiB" into out. */
void	 buf_format_bytes(uint64_t n, char *out, size_t len);
/* Do the bytes p[0..n) start with lit? */
static inline int
starts(const char *p, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && memcmp(p, lit, l) == 0;
}

/* FNV-1a (64-bit), continued from h over p[0..n); start from FNV1A_INIT. */
#define FNV1A_INIT	0xcbf29ce484222325ull
uint64_t fnv1a(uint64_t h, const void *p, size_t n);
/* Length of the valid UTF-8 sequence at p (1-4), or 0 when it is invalid. */
size_t	 utf8_seqlen(const unsigned char *p, size_t n);

#endif
