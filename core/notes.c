/* notes.c: collected messages about the input. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "notes.h"
#include "xmalloc.h"

void
notes_init(struct notes *ns)
{
	ns->v = NULL;
	ns->n = ns->cap = ns->dropped = ns->errors = 0;
}

void
notes_release(struct notes *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		free(ns->v[i].file);
		free(ns->v[i].text);
	}
	free(ns->v);
	notes_init(ns);
}

void
notes_add(struct notes *ns, enum note_level level, const char *file,
    unsigned long line, unsigned long col, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	struct note *n;
	va_list ap;

	if (level == NOTE_ERROR)
		ns->errors++;
	if (ns->n >= NOTES_MAX) {
		ns->dropped++;
		return;
	}
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	XGROW(ns->v, ns->cap, ns->n + 1);
	n = &ns->v[ns->n++];
	n->level = level;
	n->file = file ? xstrdup(file) : NULL;
	n->line = line;
	n->col = col;
	n->text = buf_detach(&b);
}

char *
note_format(const struct note *n)
{
	struct buf b = BUF_INIT;

	if (n->file != NULL) {
		buf_add_safe(&b, n->file, strlen(n->file));
		if (n->line)
			buf_printf(&b, ":%lu", n->line);
		if (n->col)
			buf_printf(&b, ":%lu", n->col);
		buf_adds(&b, ": ");
	}
	buf_adds(&b, n->level == NOTE_ERROR ? "error: " :
	    n->level == NOTE_WARN ? "warning: " : "");
	buf_adds(&b, n->text);
	return buf_detach(&b);
}
