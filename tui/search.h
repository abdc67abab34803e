/* search.h: what / looks for, on every screen: a PCRE2 regular
 * expression, blind to case when it has no capital letter (smart case, as
 * in vim's smartcase and ripgrep's -S). No curses here. */
#ifndef RW_TUI_SEARCH_H
#define RW_TUI_SEARCH_H

#include <stddef.h>

struct pattern;

/* NULL with *why (to free) when text is not a valid expression. */
struct pattern	*pattern_new(const char *text, char **why);
void		 pattern_free(struct pattern *p);
const char	*pattern_text(const struct pattern *p);
/* The first match in s[0..n) starting at or after from: 1 with its bytes
 * [*so, *eo) (never empty: an empty match counts as none), else 0. */
int		 pattern_find(struct pattern *p, const char *s, size_t n, size_t from,
		    size_t *so, size_t *eo);

#endif
