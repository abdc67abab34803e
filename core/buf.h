/* buf.h: a growable byte string, always NUL terminated. */
#ifndef RW_BUF_H
#define RW_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

#define BUF_INIT { NULL, 0, 0 }

void	 buf_init(struct buf *b);
void	 buf_release(struct buf *b);
void	 buf_clear(struct buf *b);
void	 buf_add(struct buf *b, const void *p, size_t n);
void	 buf_adds(struct buf *b, const char *s);
void	 buf_addc(struct buf *b, char c);
void	 buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Give the string to the caller (who frees it) and reset the buffer. */
char	*buf_detach(struct buf *b);
/* Append p[0..n) with bytes that could drive a terminal made visible:
 * control characters as ^X or \xNN, invalid UTF-8 as \xNN. */
void	 buf_add_safe(struct buf *b, const char *p, size_t n);
/* Append p[0..n) as the inside of a JSON string (invalid UTF-8 -> U+FFFD). */
void	 buf_add_json(struct buf *b, const char *p, size_t n);

/* "213.4 KiB", "1.0 GiB" into out. */
void	 buf_format_bytes(uint64_t n, char *out, size_t len);
/* Length of the valid UTF-8 sequence at p (1-4), or 0 when it is invalid. */
size_t	 utf8_seqlen(const unsigned char *p, size_t n);

#endif
