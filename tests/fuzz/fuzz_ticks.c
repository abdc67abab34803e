/* fuzz_ticks.c: a checklist state file's text, through ticks_parse. What
 * ticks_format writes of the steps it took must read back as the same
 * steps, and write out the same again; ticks_get finds each of them. */
#include "config.h"

#include "fuzz.h"

#include "ticks.h"

static struct ticks *
fresh(void)
{
	struct ticks *t = calloc(1, sizeof *t);

	FZ_CHECK(t != NULL);
	t->path = strdup("state");
	t->run = strdup("run: a\tb\\c\n");
	FZ_CHECK(t->path != NULL && t->run != NULL);
	return t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_copy(data, size);
	struct ticks *a = fresh(), *b = fresh();
	struct buf fa = BUF_INIT, fb = BUF_INIT;
	size_t i;

	ticks_parse(a, text, size);
	FZ_CHECK(a->n <= TICKS_MAX);
	for (i = 0; i < a->n; i++) {
		const struct tick *k = ticks_get(a, a->v[i].entry, a->v[i].step);

		FZ_CHECK(k == &a->v[i]);
		FZ_CHECK(a->v[i].entry[0] != '\0');
		FZ_CHECK(a->v[i].note == NULL || a->v[i].note[0] != '\0');
	}
	ticks_format(a, &fa);
	ticks_parse(b, fa.s, fa.len);
	FZ_CHECK(b->n == a->n);
	for (i = 0; i < a->n; i++) {
		FZ_CHECK(strcmp(a->v[i].entry, b->v[i].entry) == 0);
		FZ_CHECK(a->v[i].step == b->v[i].step);
		FZ_CHECK(a->v[i].checked == b->v[i].checked);
		FZ_CHECK((a->v[i].note == NULL) == (b->v[i].note == NULL));
		FZ_CHECK(a->v[i].note == NULL || strcmp(a->v[i].note, b->v[i].note) == 0);
	}
	ticks_format(b, &fb);
	FZ_CHECK(fa.len == fb.len && memcmp(fa.s, fb.s, fa.len) == 0);
	buf_release(&fa);
	buf_release(&fb);
	ticks_free(a);
	ticks_free(b);
	free(text);
	return 0;
}
