/* test_bins.c: a rank's lines and roles per time slice, sparse while few. */
#include "config.h"

#include "testutil.h"

#include "bins.h"

static void
test_sparse_then_dense(void **state)
{
	struct bins b = { 0 };
	size_t i;

	(void)state;
	/* out of order, repeated: counted per slice */
	bins_add(&b, 200);
	bins_add(&b, 3);
	bins_add(&b, 3);
	bins_add(&b, 100);
	assert_int_equal(bins_count(&b, 3), 2);
	assert_int_equal(bins_count(&b, 100), 1);
	assert_int_equal(bins_count(&b, 200), 1);
	assert_int_equal(bins_count(&b, 4), 0);
	assert_null(b.dense);
	assert_int_equal(b.npairs, 3);
	/* more slices than BINS_SPARSE_MAX: one dense array, counts kept */
	for (i = 0; i < TIMELINE_BINS; i++)
		bins_add(&b, i);
	assert_non_null(b.dense);
	assert_int_equal(b.npairs, 0);
	assert_int_equal(b.cappairs, 0);	/* the pairs array is gone */
	assert_int_equal(bins_count(&b, 3), 3);
	assert_int_equal(bins_count(&b, 100), 2);
	assert_int_equal(bins_count(&b, 255), 1);
	bins_release(&b);
	assert_null(b.dense);
}

static void
test_saturates(void **state)
{
	struct bins b = { 0 };
	unsigned i;

	(void)state;
	for (i = 0; i < 70000; i++)
		bins_add(&b, 7);
	assert_int_equal(bins_count(&b, 7), 65535);
	bins_release(&b);
}

static void
test_roles_and_remap(void **state)
{
	struct bins b = { 0 };
	uint8_t map[TIMELINE_BINS];
	size_t i;

	(void)state;
	bins_mark(&b, 10, 1u << 2);
	bins_mark(&b, 10, 1u << 3);
	bins_mark(&b, 11, 1u << 1);
	bins_add(&b, 10);
	bins_add(&b, 11);
	bins_add(&b, 11);
	assert_int_equal(bins_roles(&b, 10), (1u << 2) | (1u << 3));
	assert_int_equal(bins_roles(&b, 12), 0);
	/* the timeline widens twice: slices 2k and 2k+1 land in k */
	for (i = 0; i < TIMELINE_BINS; i++)
		map[i] = (uint8_t)(i / 2);
	bins_remap(&b, map);
	assert_int_equal(bins_count(&b, 5), 3);
	assert_int_equal(bins_roles(&b, 5), (1u << 1) | (1u << 2) | (1u << 3));
	assert_int_equal(bins_count(&b, 10), 0);
	assert_int_equal(bins_roles(&b, 10), 0);
	/* a dense row remaps too */
	for (i = 0; i < TIMELINE_BINS; i++)
		bins_add(&b, i);
	assert_non_null(b.dense);
	bins_remap(&b, map);
	assert_int_equal(bins_count(&b, 2), 1 + 4);	/* old 4, and old 5 with its 3 */
	assert_int_equal(bins_count(&b, 5), 1 + 1);	/* old 10 and 11 */
	assert_int_equal(bins_count(&b, 127), 1 + 1);
	assert_int_equal(bins_count(&b, 128), 0);
	assert_int_equal(bins_roles(&b, 2), (1u << 1) | (1u << 2) | (1u << 3));
	bins_release(&b);
}

/* The first BINS_INLINE pairs live in the struct; the third moves them
 * to an array, in slice order, and a remap of inline pairs keeps them. */
static void
test_inline_pairs(void **state)
{
	struct bins b = { 0 };
	uint8_t map[TIMELINE_BINS];
	size_t i;

	(void)state;
	bins_mark(&b, 40, 1u << 1);
	bins_mark(&b, 9, 1u << 2);
	assert_int_equal(b.caproles, 0);	/* inline */
	bins_mark(&b, 20, 1u << 3);
	assert_true(b.caproles > 0);
	assert_int_equal(bins_roles(&b, 9), 1u << 2);
	assert_int_equal(bins_roles(&b, 20), 1u << 3);
	assert_int_equal(bins_roles(&b, 40), 1u << 1);
	bins_add_n(&b, 7, 3);
	bins_add_n(&b, 2, 5);
	assert_int_equal(b.cappairs, 0);
	for (i = 0; i < TIMELINE_BINS; i++)
		map[i] = (uint8_t)(TIMELINE_BINS - 1 - i);	/* reversed */
	bins_remap(&b, map);
	assert_int_equal(bins_count(&b, 253), 5);
	assert_int_equal(bins_count(&b, 248), 3);
	assert_int_equal(bins_count(&b, 2), 0);
	assert_int_equal(bins_roles(&b, 246), 1u << 2);
	assert_int_equal(bins_roles(&b, 215), 1u << 1);
	bins_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparse_then_dense),
		cmocka_unit_test(test_saturates),
		cmocka_unit_test(test_roles_and_remap),
		cmocka_unit_test(test_inline_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
