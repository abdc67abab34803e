/* wrap.c: word wrapping by terminal cells. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "wrap.h"
#include "xmalloc.h"

size_t
wrap_cells(const char *s, size_t n)
{
	size_t i, cells = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			cells++;
	return cells;
}

static void
push(struct strlist *out, const char *s, size_t n)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
	out->v[out->n++] = xstrndup(s, n);
}

/* Byte length of the first `cells` cells of s[0..n). */
static size_t
cut_at(const char *s, size_t n, size_t cells)
{
	size_t i = 0, c = 0;

	while (i < n) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (c == cells)
				break;
			c++;
		}
		i++;
	}
	return i;
}

size_t
wrap_text(const char *s, int width, struct strlist *out)
{
	struct buf line = BUF_INIT;
	size_t before = out->n, lcells = 0;
	const char *p = s;

	if (width < 1)
		width = 1;
	for (;;) {
		const char *w;
		size_t wl, wc;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n') {
			push(out, line.s ? line.s : "", line.len);
			buf_clear(&line);
			lcells = 0;
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		for (w = p; *w && *w != ' ' && *w != '\t' && *w != '\n'; w++)
			;
		wl = (size_t)(w - p);
		wc = wrap_cells(p, wl);
		if (lcells > 0 && lcells + 1 + wc > (size_t)width) {
			push(out, line.s, line.len);
			buf_clear(&line);
			lcells = 0;
		}
		while (wc > (size_t)width) {
			size_t b = cut_at(p, wl, (size_t)width);

			push(out, p, b);
			p += b;
			wl -= b;
			wc -= (size_t)width;
		}
		if (lcells > 0) {
			buf_addc(&line, ' ');
			lcells++;
		}
		buf_add(&line, p, wl);
		lcells += wc;
		p += wl;
	}
	if (line.len > 0 || out->n == before)
		push(out, line.s ? line.s : "", line.len);
	buf_release(&line);
	return out->n - before;
}

size_t
wrap_row(const char *const *cells, const int *widths, size_t ncols,
    const char *sep, struct strlist *out)
{
	struct strlist *parts = xcalloc(ncols + 1, sizeof *parts);
	size_t i, r, rows = 0, before = out->n;
	struct buf b = BUF_INIT;

	for (i = 0; i < ncols; i++) {
		wrap_text(cells[i] ? cells[i] : "", widths[i], &parts[i]);
		if (parts[i].n > rows)
			rows = parts[i].n;
	}
	for (r = 0; r < rows; r++) {
		size_t last = 0;

		/* the row ends with its last non-empty cell: no dangling separator */
		for (i = 0; i < ncols; i++)
			if (r < parts[i].n && parts[i].v[r][0] != '\0')
				last = i;
		buf_clear(&b);
		for (i = 0; i <= last; i++) {
			const char *t = r < parts[i].n ? parts[i].v[r] : "";
			size_t c = wrap_cells(t, strlen(t));

			if (i > 0)
				buf_adds(&b, sep);
			buf_adds(&b, t);
			if (i < last)
				while (c++ < (size_t)widths[i])
					buf_addc(&b, ' ');
		}
		/* no trailing blanks */
		while (b.len > 0 && b.s[b.len - 1] == ' ')
			b.s[--b.len] = '\0';
		push(out, b.s ? b.s : "", b.len);
	}
	for (i = 0; i < ncols; i++)
		wrap_free(&parts[i]);
	free(parts);
	buf_release(&b);
	return out->n - before;
}

void
wrap_free(struct strlist *l)
{
	strlist_free(l);
}
