/* Screen tests of the transcription list's columns (issue 12): widths from the content on
 * screen and the terminal's width (slack to Name, then Tags; the least needed columns drop
 * first on narrow terminals), the sort arrow in the header, and `:columns` (saved in the
 * config file, read again at the next start). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/conf.h"
#include "panes_fixture.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

/* 40 terminal cells: accents and wide characters */
#define LONG_NAME "Assemblée générale — 年次総会 minutes Q1"
#define LONG_TAGS "board,finance,年次"   /* 18 cells */
#define DEMO_ORG "Demo Organization — Démo 演示"   /* the sandbox's, 29 cells */
#define LONGEST_DEMO_TAGS "interview,podcast,日本語"   /* 24 cells */

/* No poll or live re-read comes due while a screen is compared (under valgrind a test
 * takes seconds): "1 req" would show in the status bar. */
static struct steno_config quiet;
#define QUIET_LINES "refresh = 0\nrefresh_interval = 3600\nrefresh_max = 3600\n"

static void teardown(void)
{
	pf_close(&f);
	config_free(&quiet);
}

TestSuite(columns, .fini = teardown);

/* One more transcription, with a 40-cell name and long tags, made through the API as
 * another client would; its media cannot be fetched, so it settles as failed (no state
 * that changes while the screen is compared). Then r shows it at the top. */
static void add_long_row(void)
{
	char body[768], path[128];
	long status = 0;

	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\","
		 "\"tags\":[\"board\",\"finance\",\"年次\"],"
		 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}",
		 LONG_NAME, f.sbx.org_id);
	json_object *o = sbx_call(&f.sbx, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(path, sizeof path, "transcriptions/%s", sbx_str(o, "id"));
	json_object_put(o);
	for (int i = 0; i < 100; i++) {
		json_object *t = sbx_call(&f.sbx, "GET", path, NULL, &status);
		const char *st = sbx_str(t, "state");
		int failed = st && !strcmp(st, "failed");
		json_object_put(t);
		if (failed)
			break;
		cr_assert_lt(i, 99, "the transcription did not settle");
		usleep(50000);
	}
	pf_keys(&f, "r");
	pf_wait_text(&f, "Assemblée");
}

static void open_demo(int rows, int cols)
{
	struct steno_error err;
	cr_assert_eq(config_init_defaults(&quiet, &err), 0);
	quiet.refresh_interval_s = 3600;
	quiet.refresh_max_s = 3600;
	quiet.live_refresh_s = 0;
	struct pf_opts o = { .rows = rows, .cols = cols, .sandbox_args = demo30, .config = &quiet };
	pf_open(&f, &o);
	add_long_row();
}

/* Line y of the screen (masked), without its trailing newline. Caller frees. */
static char *line_at(int y)
{
	char *t = pf_text(&f), *p = t;
	for (int i = 0; i < y && p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	cr_assert_not_null(p);
	char *line = strndup(p, strcspn(p, "\n"));
	free(t);
	return line;
}

/* The terminal cell where needle starts in a line of the screen (asserts it is there). */
static int cell_col(const char *line, const char *needle)
{
	int col = scr_cell_col(line, needle);
	cr_assert_geq(col, 0, "%s not in %s", needle, line);
	return col;
}

Test(columns, at_200_columns_the_long_name_tags_and_created_are_whole)
{
	open_demo(50, 200);
	/* the name whole, then its tags whole in the room left (Tags takes the slack after
	 * Name); Created whole where it read "1h 00m …" */
	pf_expect(&f, LONG_NAME " ");
	pf_expect(&f, LONG_TAGS " ");
	pf_expect(&f, "1h 00m ago");
	pf_reject(&f, "1h 00m …");
	/* the side panes take what they need, the list the rest: the demo's longest tags
	 * (24 cells) are whole too, next to the 40-cell name */
	pf_expect(&f, " " LONGEST_DEMO_TAGS " ");
	pf_reject(&f, "interview,podcast,日…");
	pf_golden(&f, "columns-200x50.txt");
}

Test(columns, at_120_columns_name_takes_the_room_before_the_other_columns)
{
	open_demo(40, 120);
	/* Name's slack first: 16 cells at first ("Entrevista — S…"); now the list has what the
	 * side panes leave (the organizations pane holds the organization's name, 21 cells of
	 * its share) and Name takes it before Cost and Tags, which make room */
	pf_expect(&f, "Entrevista — Señora Muñ");
	char *head = line_at(1);
	cr_assert_null(strstr(head, "Cost"), "%s", head);
	cr_assert_null(strstr(head, "Tags"), "%s", head);
	cr_assert(strstr(head, "State") && strstr(head, "Created"), "%s", head);
	int name_cells = cell_col(head, "State") - cell_col(head, " Name ") - 2;
	int list_x = cell_col(head, " Name ");
	cr_assert_eq(list_x, 21 + 1, "the organizations pane takes its share: %s", head);
	cr_assert_geq(name_cells, 24, "%d: %s", name_cells, head);
	free(head);
	pf_expect(&f, "1h 00m ago");
	pf_golden(&f, "columns-120x40.txt");
}

Test(columns, at_80_columns_the_least_needed_columns_drop_first)
{
	open_demo(24, 80);
	char *head = line_at(1);
	/* Name, State and Created stay; cost, tags, length and language went */
	cr_assert(strstr(head, " Name ") && strstr(head, "State") && strstr(head, "Created"),
		  "%s", head);
	cr_assert_null(strstr(head, "Lang"), "%s", head);
	cr_assert_null(strstr(head, "Length"), "%s", head);
	free(head);
	pf_expect(&f, "1h 00m ago");
	pf_golden(&f, "columns-80x24.txt");
}

/* The organizations pane takes what its widest entry needs (the mark, the label, a blank
 * column), within its share: the list has the rest, and no name is cut that has room. */
Test(columns, the_organizations_pane_is_as_wide_as_its_widest_entry)
{
	struct steno_error err;
	cr_assert_eq(config_init_defaults(&quiet, &err), 0);
	quiet.refresh_interval_s = 3600;
	quiet.refresh_max_s = 3600;
	quiet.live_refresh_s = 0;
	/* no organization configured: the key's one is found (GET /organizations) after the
	 * first screen, and the pane widens to it */
	struct pf_opts o = { .rows = 50, .cols = 200, .sandbox_args = demo30, .config = &quiet,
		.no_org = 1 };
	pf_open(&f, &o);
	pf_wait_text(&f, "Transcriptions 4");
	char *org = line_at(1), *head = line_at(0);
	cr_assert(strstr(org, "› " DEMO_ORG " "), "%s", org);
	/* 2 + 29 + 1 columns where its share was 36 */
	cr_assert_eq(cell_col(head, "Transcriptions"), 32 + 1, "%s", head);
	free(org);
	free(head);
	/* narrower, the share as before: 21 columns at 120, 14 at 80 */
	pf_resize(&f, 40, 120);
	head = line_at(0);
	cr_assert_eq(cell_col(head, "Transcriptions"), 21 + 1, "%s", head);
	free(head);
	pf_resize(&f, 24, 80);
	head = line_at(0);
	cr_assert_eq(cell_col(head, "Transcriptions"), 14 + 1, "%s", head);
	free(head);
	/* and back: whole again */
	pf_resize(&f, 50, 200);
	pf_expect(&f, "› " DEMO_ORG " ");
}

Test(columns, the_header_points_at_the_sorted_column)
{
	open_demo(40, 120);
	pf_reject(&f, "▲");
	pf_reject(&f, "▼");
	pf_keys(&f, "s n a m e <Enter>");
	pf_expect(&f, " Name ▲ ");
	pf_keys(&f, "s <Enter>");          /* the current key again: descending */
	pf_expect(&f, " Name ▼ ");
	pf_keys(&f, "s c r e a t e d <Enter>");
	pf_expect(&f, " Created ▲ ");
	pf_reject(&f, "Name ▼");
	/* Cost is dropped at this width; sorted by it, it is shown with its arrow */
	char *head = line_at(1);
	cr_assert_null(strstr(head, "Cost"), "%s", head);
	free(head);
	pf_keys(&f, "s c o s t <Enter>");
	pf_expect(&f, " Cost ▲ ");
	pf_keys(&f, "s t a g s <Enter>");
	pf_expect(&f, " Tags ▲ ");
}

/* A config file of the test's own (pf_close removes pf's dir, this one outlives it). */
static void load_config(struct steno_config *cfg, const char *path)
{
	struct steno_error err;
	cr_assert_eq(config_init_defaults(cfg, &err), 0);
	cr_assert_eq(config_load(cfg, NULL, path, &err), 0, "%s", err.message);
}

static char *read_all(const char *path)
{
	static char buf[2048];
	FILE *in = fopen(path, "r");
	cr_assert_not_null(in, "%s", path);
	size_t n = fread(buf, 1, sizeof buf - 1, in);
	buf[n] = '\0';
	fclose(in);
	return buf;
}

/* A config file of `text` in a new directory (dir: "/tmp/steno-columns-XXXXXX"), loaded
 * into cfg, and steno opened on it at 160x40 over 30 demo items. */
static void open_with_config(char *dir, char *path, size_t size, const char *text,
			     struct steno_config *cfg, struct pf_opts *o)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, size, "%s/config", dir);
	FILE *out = fopen(path, "w");
	cr_assert_not_null(out);
	fputs(text, out);
	fclose(out);
	load_config(cfg, path);
	*o = (struct pf_opts){ .rows = 40, .cols = 160, .sandbox_args = demo30, .config = cfg };
	pf_open(&f, o);
}

static void remove_dir(const char *dir)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(columns, hiding_a_column_is_saved_and_survives_a_restart)
{
	char dir[] = "/tmp/steno-columns-XXXXXX", path[128];
	struct steno_config cfg;
	struct pf_opts o;
	open_with_config(dir, path, sizeof path, "# mine\n" QUIET_LINES, &cfg, &o);
	char *head = line_at(1);
	cr_assert(strstr(head, "Length"), "%s", head);
	free(head);
	/* the chooser: Length is the third checkbox */
	pf_keys(&f, ": c o l u m n s <Enter>");
	pf_expect(&f, "Columns");
	pf_expect(&f, "always shown");
	pf_keys(&f, "<Down> <Down> <Space> <Enter>");
	pf_expect(&f, "columns: name,state,language,cost,created,tags (saved in");
	head = line_at(1);
	cr_assert_null(strstr(head, "Length"), "%s", head);
	cr_assert(strstr(head, "Cost"), "%s", head);
	free(head);
	cr_assert_str_eq(read_all(path), "# mine\n" QUIET_LINES "columns = name,state,language,cost,created,tags\n");
	pf_close(&f);
	config_free(&cfg);

	/* the next start reads it */
	load_config(&cfg, path);
	pf_open(&f, &o);
	head = line_at(1);
	cr_assert_null(strstr(head, "Length"), "%s", head);
	cr_assert(strstr(head, "Cost"), "%s", head);
	free(head);
	/* Esc leaves everything as it was, the file too */
	pf_keys(&f, ": c o l u m n s <Enter> <Space> <Esc>");
	head = line_at(1);
	cr_assert(strstr(head, "State"), "%s", head);
	free(head);
	cr_assert_str_eq(read_all(path), "# mine\n" QUIET_LINES "columns = name,state,language,cost,created,tags\n");
	config_free(&cfg);
	remove_dir(dir);
}

Test(columns, names_after_columns_set_them_at_once)
{
	char dir[] = "/tmp/steno-columns-XXXXXX", path[128];
	struct steno_config cfg;
	struct pf_opts o;
	open_with_config(dir, path, sizeof path, QUIET_LINES, &cfg, &o);
	pf_keys(&f, ": c o l u m n s <Space> t a g s , c o s t <Enter>");
	pf_expect(&f, "columns: name,cost,tags (saved in");
	char *head = line_at(1);
	cr_assert(strstr(head, " Name ") && strstr(head, "Cost") && strstr(head, "Tags"), "%s", head);
	cr_assert_null(strstr(head, "State"), "%s", head);
	free(head);
	cr_assert_str_eq(read_all(path), QUIET_LINES "columns = name,cost,tags\n");
	/* a name it does not know changes nothing and says which */
	pf_keys(&f, ": c o l u m n s <Space> n a m e , c o l o u r <Enter>");
	pf_expect(&f, "columns: \"colour\" is not one of name, state, language, length, cost");
	cr_assert_str_eq(read_all(path), QUIET_LINES "columns = name,cost,tags\n");
	config_free(&cfg);
	remove_dir(dir);
}
