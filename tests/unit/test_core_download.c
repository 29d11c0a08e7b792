/* core/download_name: one naming pattern for every download, and the destination checked
 * before any server work (issue 12 "Downloads", issue 15 "Exports in scripts"). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/conf.h"
#include "core/download_name.h"

static void expect_name(const char *pattern, const char *name, const char *id, size_t count,
			const char *format, const char *want)
{
	struct download_name_req r = {.pattern = pattern, .name = name, .id = id, .count = count,
				      .format = format};
	struct steno_error err;
	char out[256];
	steno_error_clear(&err);
	cr_assert_eq(download_name_make(&r, out, sizeof out, &err), 0, "%s", err.message);
	cr_expect_str_eq(out, want);
}

Test(download_name, default_pattern_one_name_per_format)
{
	expect_name(NULL, "Interview", "ab12", 1, "docx", "Interview-ab12.docx");
	/* txt, avid and maxqda no longer share ID.txt */
	expect_name(NULL, "Interview", "ab12", 1, "txt", "Interview-ab12.txt");
	expect_name(NULL, "Interview", "ab12", 1, "avid", "Interview-ab12.avid.txt");
	expect_name(NULL, "Interview", "ab12", 1, "maxqda", "Interview-ab12.maxqda.txt");
	expect_name(NULL, "Interview", "ab12", 1, "premiere", "Interview-ab12.xml");
	/* several transcriptions: one ZIP */
	expect_name(NULL, "Interview", "ab12", 3, "srt", "Interview-ab12+2.zip");
	/* no name known */
	expect_name(NULL, NULL, "ab12", 1, "srt", "export-ab12.srt");
}

Test(download_name, patterns_and_hostile_names)
{
	expect_name("{id}.{ext}", "x", "ab12", 1, "vtt", "ab12.vtt");
	expect_name("steno {format} {name}.{ext}", "Réunion", "ab12", 1, "pdf", "steno pdf Réunion.pdf");
	/* a name is never a path, never an option, never a control sequence */
	expect_name("{name}.{ext}", "../../etc/passwd", "ab12", 1, "txt", "___.._etc_passwd.txt");
	expect_name("{name}.{ext}", "-rf \xe2\x80\xae" "exe", "ab12", 1, "txt", "_rf _exe.txt");
	expect_name("{name}.{ext}", "a\x1b[31mb", "ab12", 1, "txt", "a_[31mb.txt");
}

Test(download_name, bad_patterns_are_refused)
{
	struct steno_error err;
	steno_error_clear(&err);
	cr_expect_eq(download_name_check("{nom}.{ext}", &err), -1);
	cr_expect_str_eq(err.field, "download_name");
	cr_expect_eq(download_name_check("a/{id}", NULL), -1);
	cr_expect_eq(download_name_check("", NULL), -1);
	cr_expect_eq(download_name_check("{name}-{id}.{ext}", NULL), 0);
	cr_expect(download_name_wants_name(NULL));
	cr_expect_not(download_name_wants_name("{id}.{ext}"));
}

Test(download_name, config_key)
{
	struct steno_config cfg;
	struct steno_error err;
	static const char text[] = "download_name = {id}-{format}.{ext}\npage_limit = 7\n";
	cr_assert_eq(config_init_defaults(&cfg, &err), 0);
	cr_assert_eq(config_load_string(&cfg, "t", text, strlen(text), &err), 0);
	cr_expect_str_eq(cfg.download_name, "{id}-{format}.{ext}");
	cr_expect_eq(cfg.page_limit, 7);
	cr_expect_eq(cfg.n_errors, 0);
	config_free(&cfg);
	static const char bad[] = "download_name = {nom}\n";
	cr_assert_eq(config_init_defaults(&cfg, &err), 0);
	cr_assert_eq(config_load_string(&cfg, "t", bad, strlen(bad), &err), 0);
	cr_expect_null(cfg.download_name);
	cr_expect_eq(cfg.n_errors, 1);
	config_free(&cfg);
}

Test(download_name, destination_checked_first)
{
	char dir[] = "/tmp/steno-dlXXXXXX", file[64], sub[64];
	struct steno_error err;
	cr_assert(mkdtemp(dir));
	snprintf(file, sizeof file, "%s/a.txt", dir);
	FILE *f = fopen(file, "w");
	cr_assert(f);
	fclose(f);
	steno_error_clear(&err);
	cr_expect_eq(download_dest_check(dir, "b.txt", false, &err), 0);
	cr_expect_eq(download_dest_check(dir, "a.txt", false, &err), -1);
	cr_expect(strstr(err.message, "exists"), "%s", err.message);
	cr_expect_eq(err.kind, STENO_ERR_IO);
	cr_expect_eq(download_dest_check(dir, "a.txt", true, &err), 0);
	cr_expect_eq(download_dest_check(file, "x", false, &err), -1, "a file given as directory");
	cr_expect(strstr(err.message, "not a directory"), "%s", err.message);
	snprintf(sub, sizeof sub, "%s/ro", dir);
	cr_assert_eq(mkdir(sub, 0500), 0);
	if (geteuid() != 0) {   /* root writes anywhere */
		cr_expect_eq(download_dest_check(sub, "x", false, &err), -1);
		cr_expect(strstr(err.message, "cannot write"), "%s", err.message);
	}
	rmdir(sub);
	unlink(file);
	rmdir(dir);
}
