/* fuzz_pipeline.c: one or two rank logs through the whole engine. The
 * bytes before the first 0xff are rank0.log, those after it rank1.log
 * (no 0xff: one file); an input that starts with '{' is a torchrun
 * --log-dir tree instead: job/attempt_0/0/error.json, and its stderr.log
 * after the 0xff. The shipped rules are loaded once; the JSON report must
 * be valid JSON. */
#include "config.h"

#include "pipeline.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *ff = memchr(data, 0xff, size);
	const int tree = size > 0 && data[0] == '{';
	const char *first = tree ? "job/attempt_0/0/error.json" : "rank0.log";
	const char *second = tree ? "job/attempt_0/0/stderr.log" : "rank1.log";
	char *dir;

	(void)fz_matcher();	/* before the first folder, so a failure leaves none */
	dir = fz_tmpdir();
	if (ff == NULL)
		free(fz_write(dir, first, data, size));
	else {
		free(fz_write(dir, first, data, (size_t)(ff - data)));
		free(fz_write(dir, second, ff + 1, size - (size_t)(ff - data) - 1));
	}
	fz_pipeline(dir);
	fz_rmtree(dir);
	return 0;
}
