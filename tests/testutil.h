/* testutil.h: what the unit tests share: cmocka, temporary folders, files. */
#ifndef RW_TESTUTIL_H
#define RW_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
tu_rm(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* A fresh temporary folder; removed by tu_rmdir. */
static inline char *
tu_tmpdir(void)
{
	char *t = strdup("/tmp/rankwatch-test-XXXXXX");

	assert_non_null(mkdtemp(t));
	return t;
}

static inline void
tu_rmdir(char *dir)
{
	nftw(dir, tu_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* Write (or append to) dir/name, creating folders on the way. */
static inline char *
tu_write(const char *dir, const char *name, const char *text, size_t len,
    int append)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2), *s;
	FILE *fp;

	sprintf(path, "%s/%s", dir, name);
	for (s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	fp = fopen(path, append ? "ab" : "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	fclose(fp);
	return path;
}

/* Append "[2024-03-02 10:MM:SS,000] [INFO] [t.py:1:f] text" to rank<r>.log. */
static inline void
tu_say(const char *dir, int rank, int min, int sec, const char *text)
{
	char name[32], line[512];

	snprintf(name, sizeof name, "rank%d.log", rank);
	snprintf(line, sizeof line, "[2024-03-02 10:%02d:%02d,000] [INFO] [t.py:1:f] %s\n",
	    min, sec, text);
	free(tu_write(dir, name, line, strlen(line), 1));
}

#define TU_WRITE(dir, name, text) free(tu_write((dir), (name), (text), strlen(text), 0))
#define TU_APPEND(dir, name, text) free(tu_write((dir), (name), (text), strlen(text), 1))

#endif
