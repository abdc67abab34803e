/* testrules.h: a rulebook for a test, from a folder of entry files. */
#ifndef RW_TESTRULES_H
#define RW_TESTRULES_H

#include "rulebook.h"

/* Load every entry under dir; it must load and resolve cleanly. */
static inline struct rulebook *
tu_rulebook(const char *dir)
{
	struct notes ns;
	struct rulebook *rb;

	notes_init(&ns);
	rb = rulebook_new();
	assert_int_equal(rulebook_load_dir(rb, dir, &ns), 0);
	assert_int_equal(rulebook_finish(rb, &ns), 0);
	notes_release(&ns);
	return rb;
}

#endif
