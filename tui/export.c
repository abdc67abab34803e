/* export.c: e in the console: the incident report (the Markdown report
 * and the checklist as ticked, with its notes) written to a file in the
 * current folder, or the home folder when that cannot be written. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "tui.h"
#include "xmalloc.h"

int
tui_export(struct tui *t, char **out, char **why)
{
	struct buf b = BUF_INIT;
	const struct report_format *md = report_format_find("markdown");
	char name[64], *path;
	time_t now = time(NULL);
	struct tm tm;
	size_t i, j;
	FILE *fp;
	const char *home = getenv("HOME");

	report_render(md, t->run, &b);
	buf_adds(&b, "\n### Confirmation checklist\n");
	for (i = 0; i < t->an->ndiags && i < 3; i++) {
		const struct entry *e = t->an->diags[i].entry;

		if (e->nchecklist == 0)
			continue;
		buf_printf(&b, "\n**%s**\n\n", e->id);
		for (j = 0; j < e->nchecklist; j++) {
			const struct tick *k = ticks_get(t->ticks, e->id, (int)j);

			buf_printf(&b, "- [%c] ", k && k->checked ? 'x' : ' ');
			buf_add_safe(&b, e->checklist[j].step, strlen(e->checklist[j].step));
			if (k && k->note) {
				buf_adds(&b, "\n  - note: ");
				buf_add_safe(&b, k->note, strlen(k->note));
			}
			buf_addc(&b, '\n');
		}
	}
	localtime_r(&now, &tm);
	strftime(name, sizeof name, "rankwatch-incident-%Y%m%d-%H%M%S.md", &tm);
	path = xstrdup(name);
	if ((fp = fopen(path, "w")) == NULL && home != NULL) {
		free(path);
		path = xasprintf("%s/%s", home, name);
		fp = fopen(path, "w");
	}
	if (fp == NULL || fwrite(b.s, 1, b.len, fp) != b.len) {
		*why = xasprintf("not written: %s (%s)", strerror(errno), path);
		if (fp)
			fclose(fp);
		free(path);
		buf_release(&b);
		return -1;
	}
	fclose(fp);
	buf_release(&b);
	*out = path;
	return 0;
}

