/* testcond.h: a condition's result in an analysis, for the tests. */
#ifndef TESTCOND_H
#define TESTCOND_H

#include <string.h>

#include "analysis.h"

/* The analysis's result of condition id (there is one). */
static inline const struct condresult *
tu_cond(const struct analysis *an, const char *id)
{
	size_t i;

	for (i = 0; i < an->nconds; i++)
		if (strcmp(an->conds[i].cond->id, id) == 0)
			return &an->conds[i];
	fail_msg("no condition %s", id);
	return NULL;
}

#endif
