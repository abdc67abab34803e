/* view_text.c: a page of plain text (every error message side by side, a
 * log line shown whole): lines that start in the first column are titles. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "xmalloc.h"

static void
build(struct tui *t, struct page *p)
{
	const char *s = p->text, *nl;

	(void)t;
	page_clear(p);
	while (*s) {
		char *line;

		nl = strchr(s, '\n');
		line = xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
		page_add(p, line, line[0] != ' ' && line[0] ? TR_TITLE : TR_NORMAL, ROW_TEXT, 0);
		free(line);
		if (nl == NULL)
			break;
		s = nl + 1;
	}
}

void *
text_new(struct tui *t, const char *title, char *s)
{
	struct page *p = page_new(title, build, NULL);

	(void)t;
	p->text = s;
	return p;
}

const struct view_ops text_ops = {
	.name = "text",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "j/k scroll  / search  n/N next/prev  q back",
};
