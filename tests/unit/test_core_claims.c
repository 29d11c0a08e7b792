/* Issue 22: the claims of the state file (core/state_claims.c): merged by token (an id, once
 * known, stays), read and written under the file's lock by state_file_update, kept by a
 * later state_save of a process that loaded the file before, dropped after a day. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state_fixture.h"

TestSuite(claims, .init = setup, .fini = teardown);

static struct state_claim_in claim(const char *token, const char *id, int64_t started)
{
	return (struct state_claim_in){ .origin = A, .org_id = "7", .token = token, .key = "k",
					.id = id, .pid = 42, .started_ms = started };
}

static int64_t now_ms(void)
{
	return (int64_t)time(NULL) * 1000;
}

Test(claims, merged_by_token)
{
	struct state_claim_in a = claim("t1", NULL, 1000), b = claim("t2", "X", 1000);
	cr_assert_eq(state_claim_put(&st, &a), 0);
	cr_assert_eq(state_claim_put(&st, &b), 0);
	cr_expect(state_claim_taken(&st, A, "7", "X", "t1"), "t2 holds X");
	cr_expect_not(state_claim_taken(&st, A, "7", "X", "t2"), "its own claim is not another's");
	cr_expect_not(state_claim_taken(&st, B, "7", "X", NULL), "per server");
	a.id = "Y";
	a.done = true;
	cr_assert_eq(state_claim_put(&st, &a), 0);
	cr_expect_eq(st.n_claims, 2);
	cr_expect_str_eq(state_claim_find(&st, "t1")->id, "Y");
	a.id = "Z";    /* a known id stays */
	cr_assert_eq(state_claim_put(&st, &a), 0);
	cr_expect_str_eq(state_claim_find(&st, "t1")->id, "Y");
	cr_expect(state_claim_find(&st, "t1")->done);
}

static int add_fn(struct steno_state *disk, void *ud)
{
	const struct state_claim_in *c = ud;
	return state_claim_put(disk, c);
}

Test(claims, written_under_the_lock_and_kept_by_a_later_save)
{
	/* a process loaded the file (no claims yet) and learned a folder */
	struct steno_state other;
	cr_assert_eq(state_load(&other, file, &err), 0);
	state_set_origin(&other, A, "7");
	cr_assert_eq(state_folder_learn(&other, "7", "12", "/Pods", 1000, &err), 1);
	/* meanwhile a claim goes to the file */
	struct state_claim_in c = claim("t1", "X", now_ms());
	cr_assert_eq(state_file_update(file, add_fn, &c, &err), 0, "%s", err.message);
	/* the other process saves: the claim stays */
	cr_assert_eq(state_save(&other, file, &err), 0, "%s", err.message);
	state_free(&other);
	cr_assert_eq(state_load(&st, file, &err), 0);
	cr_assert_eq(st.n_claims, 1);
	cr_expect_str_eq(st.claims[0].id, "X");
	cr_expect_str_eq(st.claims[0].origin, A);
	cr_expect_eq(st.claims[0].pid, 42);
	cr_expect_eq(st.n_folders, 1);
}

Test(claims, old_ones_go)
{
	struct state_claim_in old = claim("t1", "X", now_ms() - STATE_CLAIM_KEEP_MS - 1000),
			      fresh = claim("t2", "Y", now_ms());
	cr_assert_eq(state_claim_put(&st, &old), 0);
	cr_assert_eq(state_claim_put(&st, &fresh), 0);
	state_claims_prune(&st, now_ms());
	cr_assert_eq(st.n_claims, 1);
	cr_expect_str_eq(st.claims[0].token, "t2");
}
