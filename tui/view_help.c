/* view_help.c: the help screen, written from the key table that also
 * dispatches the keys (keys.h), so the two cannot drift. */
#include "config.h"

#include "buf.h"
#include "page.h"

void *
help_new(struct tui *t)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "Keys (the same on every screen where they apply)\n");
	for (i = 0; i < nkeytable; i++)
		buf_printf(&b, "  %-12s %s\n", keytable[i].keys, keytable[i].help);
	buf_adds(&b, "\nTimeline cells\n");
	if (t->utf8)
		buf_adds(&b, "  \xe2\x96\x82\xe2\x96\x83\xe2\x96\x85\xe2\x96\x87  how busy the rank's log was   \xc2\xb7  quiet   \xe2\x96\xaa  last line\n"
		    "  \xe2\x9c\x96  initiating event   ~  collateral event   !  symptom\n");
	else
		buf_adds(&b, "  _-=#  how busy the rank's log was   .  quiet   |  last line\n"
		    "  X  initiating event   ~  collateral event   !  symptom\n");
	buf_adds(&b, "\nRoles\n  initiating  failed first   suspect  pointed at in a hang\n"
	    "  collateral  reported the fallout   silent  stopped writing   healthy\n"
	    "  reading     its log is not read to the end yet: no role until it is\n");
	return text_new(t, "help", buf_detach(&b));
}

const struct view_ops help_ops = {
	.name = "help",
	.draw = page_draw,
	.key = page_key,
	.release = page_release,
	.hints = "j/k scroll  q back",
};
