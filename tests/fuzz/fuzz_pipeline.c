/* fuzz_pipeline.c: one or two rank logs through the whole engine. The
 * bytes before the first 0xff are rank0.log, those after it rank1.log
 * (no 0xff: one file). The shipped rules are loaded once; the JSON report
 * must be valid JSON. */
#include "config.h"

#include "pipeline.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *ff = memchr(data, 0xff, size);
	char *dir;

	(void)fz_rules();	/* before the first folder, so a failure leaves none */
	dir = fz_tmpdir();
	if (ff == NULL)
		free(fz_write(dir, "rank0.log", data, size));
	else {
		free(fz_write(dir, "rank0.log", data, (size_t)(ff - data)));
		free(fz_write(dir, "rank1.log", ff + 1, size - (size_t)(ff - data) - 1));
	}
	fz_pipeline(dir);
	fz_rmtree(dir);
	return 0;
}
