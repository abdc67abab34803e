/* config_file.h: $XDG_CONFIG_HOME/rankwatch/config.yaml (default
 * ~/.config/rankwatch/config.yaml):
 *   theme: dark
 *   rules: [/path/to/our/rules]
 * A broken file is a note; rankwatch runs on defaults. */
#ifndef RW_CONFIG_FILE_H
#define RW_CONFIG_FILE_H

#include "notes.h"
#include "rulebook.h"

struct config {
	char		*path;
	char		*theme;
	struct strlist	 rules;
};

void	config_load(struct config *c, struct notes *ns);
/* Read one file; 0, or -1 with a note (c is left empty). */
int	config_read(struct config *c, const char *path, struct notes *ns);
/* The same from text[0..len), read from path (named in notes). */
int	config_parse(struct config *c, const char *path, const char *text, size_t len,
	    struct notes *ns);
void	config_release(struct config *c);

#endif
