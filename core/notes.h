/* notes.h: what rankwatch has to say about its input (unreadable files,
 * binary data, huge lines, bad rule files), each naming a file and line.
 * Core never prints: it collects notes, the front end shows them. */
#ifndef RW_NOTES_H
#define RW_NOTES_H

#include <stddef.h>

enum note_level {
	NOTE_INFO,
	NOTE_WARN,
	NOTE_ERROR,
};

struct note {
	enum note_level	 level;
	char		*file;	/* may be NULL */
	unsigned long	 line;	/* 0 = none */
	unsigned long	 col;	/* 0 = none */
	char		*text;
};

#define NOTES_MAX 2000

struct notes {
	struct note	*v;
	size_t		 n, cap;
	size_t		 dropped;	/* notes past NOTES_MAX, counted only */
	size_t		 errors;
};

void	notes_init(struct notes *ns);
void	notes_release(struct notes *ns);
void	notes_add(struct notes *ns, enum note_level level, const char *file,
	    unsigned long line, unsigned long col, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* "file:line:col: text" (parts that are absent are left out). */
char	*note_format(const struct note *n);

#endif
