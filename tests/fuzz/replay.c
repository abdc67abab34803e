/* replay.c: a main for a fuzz target without libFuzzer. Each argument is
 * a file or a folder of files (not searched deeper); every file is read
 * and handed to LLVMFuzzerTestOneInput once, so make check replays the
 * corpus on any machine. An input that trips a check aborts; otherwise it
 * prints how many inputs it replayed and exits 0 (1 when a path cannot be
 * read, or nothing was replayed). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long replayed;
static int failed;

static void
replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *data = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (fp == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		failed = 1;
		return;
	}
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			if ((grown = realloc(data, cap)) == NULL) {
				fprintf(stderr, "%s: out of memory\n", path);
				abort();
			}
			data = grown;
		}
		n = fread(data + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "%s: read error\n", path);
		failed = 1;
		fclose(fp);
		free(data);
		return;
	}
	fclose(fp);
	/* an exact-size copy, as libFuzzer hands it over */
	grown = malloc(len ? len : 1);
	if (grown == NULL)
		abort();
	memcpy(grown, data, len);
	free(data);
	if (getenv("REPLAY_VERBOSE") != NULL)
		fprintf(stderr, "replay %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(grown, len);
	free(grown);
	replayed++;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
replay(const char *path)
{
	struct stat sb;
	struct dirent *de;
	DIR *d;
	char **names = NULL, **grown;
	size_t n = 0, cap = 0, i;

	if (stat(path, &sb) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		failed = 1;
		return;
	}
	if (!S_ISDIR(sb.st_mode)) {
		replay_file(path);
		return;
	}
	if ((d = opendir(path)) == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		failed = 1;
		return;
	}
	while ((de = readdir(d)) != NULL) {
		char *p;
		size_t l;

		if (de->d_name[0] == '.')
			continue;
		l = strlen(path) + strlen(de->d_name) + 2;
		if ((p = malloc(l)) == NULL)
			abort();
		snprintf(p, l, "%s/%s", path, de->d_name);
		if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			if ((grown = realloc(names, cap * sizeof *names)) == NULL)
				abort();
			names = grown;
		}
		names[n++] = p;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, by_name);	/* the same order everywhere */
	for (i = 0; i < n; i++) {
		replay_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		replay(argv[i]);
	printf("%lu inputs replayed\n", replayed);
	return failed || replayed == 0 ? 1 : 0;
}
