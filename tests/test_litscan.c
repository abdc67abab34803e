/* test_litscan.c: the one-pass literal scan finds exactly what a naive
 * search finds, on the vector path and the byte-by-byte one. */
#include "config.h"

#include "testutil.h"

#include "litscan.h"

static unsigned
rnd(unsigned *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return *seed >> 16;
}

static int
hit_cmp(const void *a, const void *b)
{
	const struct lithit *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return 0;
}

static int
naive_at(const char *lit, size_t len, int icase, const char *p)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char a = (unsigned char)lit[i], b = (unsigned char)p[i];

		if (icase && a >= 'A' && a <= 'Z')
			a += 32;
		if (icase && b >= 'A' && b <= 'Z')
			b += 32;
		if (a != b)
			return 0;
	}
	return 1;
}

/* Small alphabets make many near misses and many real hits. */
static void
random_text(unsigned *seed, char *p, size_t n, const char *alphabet)
{
	size_t i, k = strlen(alphabet);

	for (i = 0; i < n; i++)
		p[i] = alphabet[rnd(seed) % k];
}

static void
check_round(unsigned *seed, int nlits, int scalar, int tuned)
{
	static const char alphabet[] = "lossNAnaninf:= -+\nEeRr/msIt";
	char lits[64][16], text[3000];
	size_t lens[64], n = 1 + rnd(seed) % (sizeof text - 1), i, j;
	int icase[64], k;
	struct litscan *ls = litscan_new();
	struct lithits got = { NULL, 0, 0 }, want = { NULL, 0, 0 };

	for (k = 0; k < nlits; k++) {
		lens[k] = 3 + rnd(seed) % 10;
		random_text(seed, lits[k], lens[k], alphabet);
		icase[k] = rnd(seed) % 2;
		litscan_add(ls, lits[k], lens[k], icase[k], (uint32_t)k);
	}
	random_text(seed, text, n, alphabet);
	/* plant some of them, at the ends too */
	for (k = 0; k < nlits && n > 16; k++)
		if (rnd(seed) % 2) {
			size_t at = rnd(seed) % 3 == 0 ? n - lens[k] : rnd(seed) % (n - lens[k]);

			memcpy(text + at, lits[k], lens[k]);
			if (icase[k] && rnd(seed) % 2)
				for (j = at; j < at + lens[k]; j++)
					if (text[j] >= 'a' && text[j] <= 'z')
						text[j] -= 32;
		}
	litscan_build(ls, tuned ? text : NULL, tuned ? n : 0);
	litscan_force_scalar(scalar);
	litscan_scan(ls, text, n, &got);
	litscan_force_scalar(0);
	for (i = 0; i < n; i++)
		for (k = 0; k < nlits; k++)
			if (i + lens[k] <= n && naive_at(lits[k], lens[k], icase[k], text + i)) {
				want.v = realloc(want.v, (want.n + 1) * sizeof *want.v);
				assert_non_null(want.v);
				want.v[want.n].start = (uint32_t)i;
				want.v[want.n].end = (uint32_t)(i + lens[k]);
				want.v[want.n++].target = (uint32_t)k;
			}
	if (got.n > 1)
		qsort(got.v, got.n, sizeof *got.v, hit_cmp);
	assert_int_equal(got.n, want.n);
	for (i = 0; i < got.n; i++) {
		assert_int_equal(got.v[i].start, want.v[i].start);
		assert_int_equal(got.v[i].target, want.v[i].target);
		assert_int_equal(got.v[i].end, want.v[i].end);
	}
	free(got.v);
	free(want.v);
	litscan_free(ls);
}

static void
test_agrees_with_naive_search(void **state)
{
	unsigned seed = 4242;
	int round;

	(void)state;
	for (round = 0; round < 1000; round++)
		check_round(&seed, 1 + round % 40, round % 2, round % 3 == 0);
}

static void
test_no_literals_no_hits(void **state)
{
	struct litscan *ls = litscan_new();
	struct lithits h = { NULL, 0, 0 };

	(void)state;
	litscan_add(ls, "ab", 2, 0, 1);		/* too short: ignored */
	litscan_build(ls, NULL, 0);
	assert_int_equal(litscan_count(ls), 0);
	litscan_scan(ls, "ab ab ab", 8, &h);
	assert_int_equal(h.n, 0);
	litscan_free(ls);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees_with_naive_search),
		cmocka_unit_test(test_no_literals_no_hits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
