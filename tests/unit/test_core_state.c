/* tui/core state file: learned folders, atomic save, corrupt files kept as .bad. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/paths.h"
#include "core/state.h"
#include "core_helpers.h"

static char *dir;
static struct steno_error err;
static struct steno_state st;

static void setup(void)
{
	dir = core_tmpdir();
	steno_error_clear(&err);
	state_init(&st);
}

static void teardown(void)
{
	state_free(&st);
	core_rm_rf(dir);
}

TestSuite(state, .init = setup, .fini = teardown);

Test(state, learn_save_load)
{
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", NULL, 1000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", NULL, 2000, &err), 0);
	cr_assert_eq(state_folder_learn(&st, "6411621", NULL, "/Pods/2024", 3000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "77", "5", "/Other", 4000, &err), 1);
	/* a path learned later fills in the id's entry */
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", "/Interviews", 5000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "", "1", NULL, 1, &err), -1);
	cr_assert_eq(state_folder_learn(&st, "1", NULL, "no-slash", 1, &err), -1);
	cr_assert(st.dirty);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(state_save(&st, p.state_file, &err), 0, "%s", err.message);
	cr_assert_not(st.dirty);
	struct stat sb;
	cr_assert_eq(stat(p.state_file, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0600);
	cr_assert_eq(stat(p.state_dir, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0700);
	state_free(&st);
	cr_assert_eq(state_load(&st, p.state_file, &err), 0, "%s", err.message);
	cr_assert_eq(st.n_folders, 3);
	size_t *idx;
	cr_assert_eq(state_folders_of(&st, "6411621", &idx), 2);
	cr_assert_str_eq(st.folders[idx[0]].folder_id, "12");
	cr_assert_str_eq(st.folders[idx[0]].path, "/Interviews");
	cr_assert_eq(st.folders[idx[0]].learned_ms, 1000);
	cr_assert_str_eq(st.folders[idx[1]].path, "/Pods/2024");
	cr_assert_null(st.folders[idx[1]].folder_id);
	free(idx);
	paths_free(&p);
}

Test(state, missing_file_is_empty)
{
	cr_assert_eq(state_load(&st, core_path(dir, "none.json"), &err), 0);
	cr_assert_eq(st.n_folders, 0);
}

static void check_quarantine(const char *content)
{
	char *f = core_path(dir, "state.json");
	core_write(f, content, 0600);
	state_free(&st);
	steno_error_clear(&err);
	cr_assert_eq(state_load(&st, f, &err), 1, "%s", content);
	cr_assert_eq(st.n_folders, 0);
	cr_assert(strstr(err.message, "corrupt"), "%s", err.message);
	cr_assert(strstr(err.message, ".bad"), "%s", err.message);
	char bad[600];
	snprintf(bad, sizeof(bad), "%s.bad", f);
	struct stat sb;
	cr_assert_eq(stat(bad, &sb), 0);
	cr_assert_neq(stat(f, &sb), 0);
	unlink(bad);
}

Test(state, corrupt_files_are_kept_aside)
{
	check_quarantine("{not json");
	check_quarantine("{\"version\":1,\"folders\":[]} trailing");
	check_quarantine("[1,2,3]");
	check_quarantine("{\"version\":2,\"folders\":[]}");
	check_quarantine("{\"version\":1,\"folders\":[{\"org\":\"1\"}]}");
	check_quarantine("{\"version\":1,\"folders\":[{\"org\":\"1\",\"id\":\"a\\u0001b\"}]}");
}
