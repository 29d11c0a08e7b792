/* The list's column names (config `columns`, `:columns`) and writing a global setting back
 * into the config file without touching the rest of it. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "core/columns.h"
#include "core/conf.h"
#include "core_helpers.h"

Test(columns, names_parse_in_any_order_and_name_is_always_shown)
{
	unsigned shown = 0;
	char bad[32] = "";
	cr_assert_eq(listcol_parse("tags, State ,created", &shown, bad, sizeof bad), 0);
	cr_assert_eq(shown, LISTCOL_BIT(LISTCOL_NAME) | LISTCOL_BIT(LISTCOL_STATE) |
		     LISTCOL_BIT(LISTCOL_CREATED) | LISTCOL_BIT(LISTCOL_TAGS));
	cr_assert_eq(listcol_parse("name,state,language,length,cost,created,tags", &shown, NULL, 0), 0);
	cr_assert_eq(shown, LISTCOL_ALL);
}

Test(columns, an_unknown_or_empty_name_is_refused_and_named)
{
	unsigned shown = 7;
	char bad[32] = "";
	cr_assert_eq(listcol_parse("name,colour", &shown, bad, sizeof bad), -1);
	cr_assert_str_eq(bad, "colour");
	cr_assert_eq(shown, 7, "untouched");
	cr_assert_eq(listcol_parse("name,,tags", &shown, bad, sizeof bad), -1);
	cr_assert_str_eq(bad, "");
	cr_assert_eq(listcol_parse("", &shown, bad, sizeof bad), -1);
}

Test(columns, format_is_list_order_and_parses_back)
{
	char buf[128];
	unsigned back = 0;
	listcol_format(LISTCOL_BIT(LISTCOL_TAGS) | LISTCOL_BIT(LISTCOL_STATE), buf, sizeof buf);
	cr_assert_str_eq(buf, "name,state,tags");
	listcol_format(LISTCOL_ALL, buf, sizeof buf);
	cr_assert_str_eq(buf, "name,state,language,length,cost,created,tags");
	cr_assert_eq(listcol_parse(buf, &back, NULL, 0), 0);
	cr_assert_eq(back, LISTCOL_ALL);
	listcol_format(LISTCOL_ALL, buf, 12);   /* cut, never past the buffer */
	cr_assert_eq(strlen(buf), 11);
}

Test(columns, the_config_key_is_read_and_a_bad_one_keeps_the_default)
{
	struct steno_config cfg;
	struct steno_error err;
	const char *ok = "columns = name, cost, tags\n";
	const char *bad = "columns = name,colour\n";
	config_init_defaults(&cfg, &err);
	cr_assert_eq(cfg.list_columns, LISTCOL_ALL);
	cr_assert_eq(config_load_string(&cfg, "t.conf", ok, strlen(ok), &err), 0);
	cr_assert_eq(cfg.list_columns, LISTCOL_BIT(LISTCOL_NAME) | LISTCOL_BIT(LISTCOL_COST) |
		     LISTCOL_BIT(LISTCOL_TAGS));
	config_free(&cfg);
	config_init_defaults(&cfg, &err);
	cr_assert_eq(config_load_string(&cfg, "t.conf", bad, strlen(bad), &err), 0);
	cr_assert_eq(cfg.list_columns, LISTCOL_ALL);
	cr_assert_eq(cfg.n_errors, 1);
	cr_assert(strstr(cfg.diags[0].text, "t.conf:1: error: columns: \"colour\" is not a column"),
		  "%s", cfg.diags[0].text);
	config_free(&cfg);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	static char buf[4096];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

Test(config_write, a_missing_file_is_created_private)
{
	char *dir = core_tmpdir();
	char *path = core_path(dir, "sub/config");
	struct steno_error err;
	struct stat st;
	cr_assert_eq(config_set_global(path, "columns", "name,state", &err), 0, "%s", err.message);
	cr_assert_str_eq(slurp(path), "columns = name,state\n");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	core_rm_rf(dir);
}

Test(config_write, the_line_is_replaced_in_place_and_the_rest_kept)
{
	char *dir = core_tmpdir();
	char *path = core_path(dir, "config");
	struct steno_error err;
	struct stat st;
	core_write(path, "# mine\ntheme = gruvbox\n  columns = name ; old\nmouse = yes\n"
		   "[profile w]\napi_key = k\ncolumns = x\n", 0640);
	cr_assert_eq(config_set_global(path, "columns", "name,tags", &err), 0, "%s", err.message);
	cr_assert_str_eq(slurp(path), "# mine\ntheme = gruvbox\ncolumns = name,tags\nmouse = yes\n"
			 "[profile w]\napi_key = k\ncolumns = x\n");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0640, "the file keeps its mode");
	core_rm_rf(dir);
}

Test(config_write, a_new_line_goes_before_the_first_section_and_loads_back)
{
	char *dir = core_tmpdir();
	char *path = core_path(dir, "config");
	struct steno_error err;
	struct steno_config cfg;
	core_write(path, "theme = mono\n[profile w]\nbase_url = http://127.0.0.1:1/api/v1\n", 0600);
	cr_assert_eq(config_set_global(path, "columns", "name,cost", &err), 0, "%s", err.message);
	cr_assert_str_eq(slurp(path), "theme = mono\ncolumns = name,cost\n[profile w]\n"
			 "base_url = http://127.0.0.1:1/api/v1\n");
	config_init_defaults(&cfg, &err);
	cr_assert_eq(config_load(&cfg, NULL, path, &err), 0, "%s", err.message);
	cr_assert_eq(cfg.list_columns, LISTCOL_BIT(LISTCOL_NAME) | LISTCOL_BIT(LISTCOL_COST));
	cr_assert_eq(cfg.n_diags, 0);
	config_free(&cfg);
	core_rm_rf(dir);
}

Test(config_write, general_section_lines_are_global_too_and_a_last_line_without_newline)
{
	char *dir = core_tmpdir();
	char *path = core_path(dir, "config");
	struct steno_error err;
	/* a later [general] line would win over a new top line: it is the one replaced */
	core_write(path, "[general]\ncolumns = name\n[keys]\ncolumns = name,cost", 0600);
	cr_assert_eq(config_set_global(path, "columns", "name,tags", &err), 0, "%s", err.message);
	cr_assert_str_eq(slurp(path), "[general]\ncolumns = name,tags\n[keys]\n");
	core_write(path, "mouse = yes", 0600);
	cr_assert_eq(config_set_global(path, "columns", "name", &err), 0, "%s", err.message);
	cr_assert_str_eq(slurp(path), "mouse = yes\ncolumns = name\n");
	cr_assert_eq(config_set_global(path, "columns", "a\nb", &err), -1);
	cr_assert_eq(config_set_global(NULL, "columns", "a", &err), -1);
	core_rm_rf(dir);
}

Test(config_write, a_linked_config_file_is_written_where_it_lives)
{
	char *dir = core_tmpdir();
	char target[512], link_path[512];
	struct steno_error err;
	struct stat st;
	snprintf(target, sizeof target, "%s", core_path(dir, "dotfiles-config"));
	snprintf(link_path, sizeof link_path, "%s", core_path(dir, "config"));
	core_write(target, "mouse = yes\n", 0600);
	cr_assert_eq(symlink(target, link_path), 0);
	cr_assert_eq(config_set_global(link_path, "columns", "name,tags", &err), 0, "%s", err.message);
	cr_assert_eq(lstat(link_path, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link stays a link");
	cr_assert_str_eq(slurp(target), "mouse = yes\ncolumns = name,tags\n");
	core_rm_rf(dir);
}
