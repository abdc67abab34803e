/* fuzz_errorjson.c: a torchrun error.json, as torchrun --log-dir leaves it
 * (<dir>/job/attempt_0/0/error.json), through discovery, the error.json
 * reader and the whole engine; the JSON report must be valid JSON. */
#include "config.h"

#include "pipeline.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dir;

	(void)fz_rules();
	dir = fz_tmpdir();
	free(fz_write(dir, "job/attempt_0/0/error.json", data, size));
	fz_pipeline(dir);
	fz_rmtree(dir);
	return 0;
}
