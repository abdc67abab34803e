/* fuzz_escape.c: every way rankwatch shows bytes from a log, on arbitrary
 * bytes. What must hold:
 *  - vis_next (the console, UTF-8 or not) takes every byte once, and what
 *    it lets through as text is one printable character, never a C0 or C1
 *    control, DEL or a byte of invalid UTF-8; what it shows instead is
 *    printable ASCII;
 *  - buf_add_safe (text reports) is made of those units: valid UTF-8 with
 *    no control character at all;
 *  - buf_add_json (JSON reports) between quotes is a strict JSON string,
 *    and reads back as the input whenever the input is valid UTF-8;
 *  - buf_add_md (Markdown) is safe text in which no '|' ends a table cell,
 *    and which has no '`' to end a code span. */
#include "config.h"

#include "fuzz.h"

#include "pipeline.h"

static void
check_vis(const unsigned char *u, size_t n, int utf8)
{
	struct vis v;
	size_t i, j;

	for (i = 0; i < n; i += v.len) {
		vis_next(u + i, n - i, utf8, &v);
		FZ_CHECK(v.len >= 1 && v.len <= 4 && v.len <= n - i);
		switch (v.kind) {
		case VIS_TEXT:
			if (v.len == 1)
				FZ_CHECK(u[i] >= 0x20 && u[i] < 0x7f);
			else {
				FZ_CHECK(utf8);
				FZ_CHECK(utf8_seqlen(u + i, n - i) == v.len);
				FZ_CHECK(!(u[i] == 0xc2 && u[i + 1] < 0xa0));
			}
			break;
		case VIS_TAB:
			FZ_CHECK(u[i] == '\t' && v.len == 1);
			break;
		case VIS_CTRL:
		case VIS_HEX:
			FZ_CHECK(v.len == 1 && v.show[0] != '\0');
			for (j = 0; v.show[j] != '\0'; j++)
				FZ_CHECK(v.show[j] >= 0x20 && v.show[j] < 0x7f);
			break;
		default:
			FZ_CHECK(0);
		}
	}
}

/* Valid UTF-8 with no C0, C1 or DEL. */
static void
check_safe(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, l;

	for (i = 0; i < n; i += l) {
		FZ_CHECK(u[i] >= 0x20 && u[i] != 0x7f);
		l = utf8_seqlen(u + i, n - i);
		FZ_CHECK(l != 0);
		FZ_CHECK(!(l == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0));
	}
}

static unsigned
hexval(unsigned char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/* Decode the inside of a JSON string that fz_json_string accepted (no
 * surrogates: buf_add_json writes none) into out. */
static void
json_decode(const char *s, size_t n, struct buf *out)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] != '\\') {
			buf_addc(out, s[i++]);
			continue;
		}
		i++;
		switch (s[i]) {
		case 'n': buf_addc(out, '\n'); i++; break;
		case 't': buf_addc(out, '\t'); i++; break;
		case 'r': buf_addc(out, '\r'); i++; break;
		case 'b': buf_addc(out, '\b'); i++; break;
		case 'f': buf_addc(out, '\f'); i++; break;
		case 'u': {
			unsigned cp = hexval((unsigned char)s[i + 1]) << 12 |
			    hexval((unsigned char)s[i + 2]) << 8 |
			    hexval((unsigned char)s[i + 3]) << 4 | hexval((unsigned char)s[i + 4]);

			FZ_CHECK(cp < 0xd800 || cp > 0xdfff);
			if (cp < 0x80)
				buf_addc(out, (char)cp);
			else if (cp < 0x800) {
				buf_addc(out, (char)(0xc0 | cp >> 6));
				buf_addc(out, (char)(0x80 | (cp & 0x3f)));
			} else {
				buf_addc(out, (char)(0xe0 | cp >> 12));
				buf_addc(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
				buf_addc(out, (char)(0x80 | (cp & 0x3f)));
			}
			i += 5;
			break;
		}
		default: buf_addc(out, s[i]); i++; break;
		}
	}
}

static int
valid_utf8(const unsigned char *u, size_t n)
{
	size_t i, l;

	for (i = 0; i < n; i += l)
		if ((l = utf8_seqlen(u + i, n - i)) == 0)
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct buf b = BUF_INIT, back = BUF_INIT;
	struct fz_json j;
	size_t i, k;

	check_vis(data, size, 1);
	check_vis(data, size, 0);

	buf_add_safe(&b, text, size);
	check_safe(b.s ? b.s : "", b.len);

	buf_clear(&b);
	buf_addc(&b, '"');
	buf_add_json(&b, text, size);
	buf_addc(&b, '"');
	j.p = (const unsigned char *)b.s;
	j.end = j.p + b.len;
	j.depth = 0;
	FZ_CHECK(fz_json_string(&j) && j.p == j.end);
	for (i = 1; i + 1 < b.len; i++)	/* nothing a terminal acts on, even cat'ed */
		FZ_CHECK((unsigned char)b.s[i] >= 0x20 && b.s[i] != 0x7f &&
		    !((unsigned char)b.s[i] == 0xc2 && (unsigned char)b.s[i + 1] < 0xa0));
	if (valid_utf8(data, size)) {
		json_decode(b.s + 1, b.len - 2, &back);
		FZ_CHECK(back.len == size && (size == 0 || memcmp(back.s, data, size) == 0));
	}

	buf_clear(&b);
	buf_add_md(&b, text, size);
	check_safe(b.s ? b.s : "", b.len);
	for (i = 0; i < b.len; i++) {
		FZ_CHECK(b.s[i] != '`');
		if (b.s[i] == '|') {	/* escaped: an odd run of backslashes before it */
			for (k = 0; k < i && b.s[i - 1 - k] == '\\'; k++)
				;
			FZ_CHECK(k % 2 == 1);
		}
	}
	buf_release(&b);
	buf_release(&back);
	free(text);
	return 0;
}
