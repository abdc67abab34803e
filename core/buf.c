/* buf.c: growable strings, and the escaping every output path shares. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "xmalloc.h"

void
buf_init(struct buf *b)
{
	b->s = NULL;
	b->len = b->cap = 0;
	b->drain = NULL;
	b->drain_arg = NULL;
}

void
buf_release(struct buf *b)
{
	free(b->s);
	buf_init(b);
}

void
buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

static void
buf_reserve(struct buf *b, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->len + n + 1, 1);
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n <= 0)
		return;
	buf_reserve(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_drain(struct buf *b)
{
	if (b->drain == NULL || b->len < BUF_DRAIN_AT)
		return;
	b->drain(b->drain_arg, b->s, b->len);
	b->len = 0;
	b->s[0] = '\0';
}

int
buf_strp_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *
buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	buf_init(b);
	return s;
}

size_t
utf8_seqlen(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len, i;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void
vis_next(const unsigned char *u, size_t n, int utf8, struct vis *v)
{
	size_t l;

	v->len = 1;
	v->show[0] = '\0';
	if (u[0] == '\t')
		v->kind = VIS_TAB;
	else if (u[0] < 0x20 || u[0] == 0x7f) {
		v->kind = VIS_CTRL;
		v->show[0] = '^';
		v->show[1] = (char)(u[0] == 0x7f ? '?' : u[0] + '@');
		v->show[2] = '\0';
	} else if (u[0] < 0x80)
		v->kind = VIS_TEXT;
	else if (utf8 && (l = utf8_seqlen(u, n)) != 0 &&
	    !(l == 2 && u[0] == 0xc2 && u[1] < 0xa0)) {
		/* C1 controls (U+0080..U+009F) are escapes too */
		v->kind = VIS_TEXT;
		v->len = l;
	} else {
		static const char hex[] = "0123456789abcdef";

		v->kind = VIS_HEX;
		v->show[0] = '\\';
		v->show[1] = 'x';
		v->show[2] = hex[u[0] >> 4];
		v->show[3] = hex[u[0] & 15];
		v->show[4] = '\0';
	}
}

void
buf_add_safe(struct buf *b, const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	struct vis v;
	size_t i;

	for (i = 0; i < n; i += v.len) {
		vis_next(u + i, n - i, 1, &v);
		if (v.kind == VIS_TEXT)
			buf_add(b, u + i, v.len);
		else if (v.kind == VIS_TAB)
			buf_addc(b, ' ');
		else
			buf_adds(b, v.show);
	}
}

void
buf_add_md(struct buf *b, const char *p, size_t n)
{
	struct buf t = BUF_INIT;
	size_t i, run;

	buf_add_safe(&t, p, n);
	for (i = 0; i < t.len; i++) {
		if (t.s[i] == '\\') {
			for (run = 0; i + run < t.len && t.s[i + run] == '\\'; run++)
				;
			buf_add(b, t.s + i, run);
			if (i + run < t.len && t.s[i + run] == '|')
				buf_add(b, t.s + i, run);	/* each one escaped */
			i += run - 1;
		} else if (t.s[i] == '|')
			buf_adds(b, "\\|");
		else if (t.s[i] == '`')
			buf_addc(b, '\'');
		else
			buf_addc(b, t.s[i]);
	}
	buf_release(&t);
}

ssize_t
read_file_at(const char *path, void *dst, size_t n, uint64_t off)
{
	ssize_t r;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return -1;
	r = pread(fd, dst, n, (off_t)off);
	close(fd);
	return r;
}

int
buf_slurp(struct buf *b, const char *path, size_t limit)
{
	char chunk[8192];
	ssize_t r;
	int fd, e;

	buf_clear(b);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return -1;
	for (;;) {
		r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (b->len + (size_t)r > limit) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		buf_add(b, chunk, (size_t)r);
	}
	e = errno;
	close(fd);
	if (r < 0) {
		errno = e;
		return -1;
	}
	if (b->s == NULL)
		buf_add(b, "", 0);
	return 0;
}

void
buf_add_jstr(struct buf *b, const char *s)
{
	if (s == NULL) {
		buf_adds(b, "null");
		return;
	}
	buf_addc(b, '"');
	buf_add_json(b, s, strlen(s));
	buf_addc(b, '"');
}

void
buf_add_json(struct buf *b, const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0, l;

	while (i < n) {
		unsigned c = u[i];
		size_t j;

		/* a run of plain ASCII goes in at once */
		for (j = i; j < n && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '"' && u[j] != '\\'; j++)
			;
		if (j > i) {
			buf_add(b, u + i, j - i);
			i = j;
			continue;
		}
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
			i++;
		} else if (c == '\n') {
			buf_adds(b, "\\n");
			i++;
		} else if (c == '\t') {
			buf_adds(b, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			buf_printf(b, "\\u%04x", c);
			i++;
		} else if (c < 0x80) {
			buf_addc(b, (char)c);
			i++;
		} else if ((l = utf8_seqlen(u + i, n - i)) != 0) {
			/* C1 controls stay escaped: a JSON file may be cat'ed. */
			if (l == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0)
				buf_printf(b, "\\u%04x", u[i + 1]);
			else
				buf_add(b, u + i, l);
			i += l;
		} else {
			buf_adds(b, "\\ufffd");
			i++;
		}
	}
}

void
buf_format_bytes(uint64_t n, char *out, size_t len)
{
	if (n >= 1ull << 30)
		snprintf(out, len, "%.1f GiB", (double)n / (double)(1ull << 30));
	else if (n >= 1ull << 20)
		snprintf(out, len, "%.1f MiB", (double)n / (double)(1ull << 20));
	else if (n >= 1024)
		snprintf(out, len, "%.1f KiB", (double)n / 1024.0);
	else
		snprintf(out, len, "%llu B", (unsigned long long)n);
}

uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}
