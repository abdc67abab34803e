/* fuzz.h: what the fuzz targets share: the libFuzzer entry point's
 * prototype, a fresh temporary folder, writing a file, removing a tree.
 * Each target is built twice: with clang -fsanitize=fuzzer (make fuzz),
 * and with replay.c's main for make check, which replays the corpus. */
#ifndef RW_FUZZ_H
#define RW_FUZZ_H

#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant: say which and abort, so the fuzzer keeps the input
 * and the replay fails. */
#define FZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: fuzz check failed: %s\n",	\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

static inline int
fz_rm(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* A fresh folder under $TMPDIR (or /tmp); the caller frees the name. */
static inline char *
fz_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	size_t n;
	char *s;

	if (t == NULL || *t != '/')
		t = "/tmp";
	n = strlen(t) + sizeof "/rwfuzz-XXXXXX";
	s = malloc(n);
	FZ_CHECK(s != NULL);
	snprintf(s, n, "%s/rwfuzz-XXXXXX", t);
	if (mkdtemp(s) == NULL) {
		perror("mkdtemp");
		abort();
	}
	return s;
}

/* Remove dir and everything in it; free its name. */
static inline void
fz_rmtree(char *dir)
{
	if (dir == NULL)
		return;
	nftw(dir, fz_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* Write p[0..n) to dir/name, making the folders on the way; returns the
 * path (the caller frees it). */
static inline char *
fz_write(const char *dir, const char *name, const void *p, size_t n)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len), *s;
	FILE *fp;

	FZ_CHECK(path != NULL);
	snprintf(path, len, "%s/%s", dir, name);
	for (s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	if ((fp = fopen(path, "wb")) == NULL) {
		perror(path);
		abort();
	}
	if (n > 0 && fwrite(p, 1, n, fp) != n) {
		perror(path);
		abort();
	}
	FZ_CHECK(fclose(fp) == 0);
	return path;
}

/* An exact-size copy of p[0..n) (not NUL terminated): a read past its
 * end is a heap overflow the sanitizer sees. */
static inline char *
fz_copy(const void *p, size_t n)
{
	char *s = malloc(n ? n : 1);

	FZ_CHECK(s != NULL);
	if (n > 0)
		memcpy(s, p, n);
	else
		s[0] = '\0';	/* never read: len is 0 */
	return s;
}

#endif
