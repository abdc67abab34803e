/* encyclopedia.h: entries rendered as text for the terminal, headless. */
#ifndef RW_ENCYCLOPEDIA_H
#define RW_ENCYCLOPEDIA_H

#include "buf.h"
#include "rulebook.h"

/* One line per entry: id, category, severity, title. */
void	encyclopedia_list(const struct rulebook *rb, struct buf *out);
/* The whole entry, wrapped at width columns. */
void	encyclopedia_show(const struct entry *e, int width, struct buf *out);
/* Every error message the encyclopedia knows, by category, with the entry
 * and role it leads to, then the environment variables that tell them apart. */
void	encyclopedia_errors(const struct rulebook *rb, int width, struct buf *out);
/* The same as JSON, for scripts: the list as an array of
 * {id, category, severity, title, file}; one entry whole (every field of
 * its file, signatures with their patterns and roles); the errors as an
 * array of {category, entry, signature, role, message} and the
 * environment variables as {name, shows, entries}. */
void	encyclopedia_list_json(const struct rulebook *rb, struct buf *out);
void	encyclopedia_show_json(const struct entry *e, struct buf *out);
void	encyclopedia_errors_json(const struct rulebook *rb, struct buf *out);
/* Append s wrapped at width, every line starting with indent. */
void	encyclopedia_wrap(struct buf *out, const char *s, const char *indent,
	    const char *first, int width);

#endif
