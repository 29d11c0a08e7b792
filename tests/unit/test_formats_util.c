#include "config.h"

#include "test_formats_util.h"
#include "formats/export.h"
#include "formats/transcript.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tf_path[256];

const char *tf_dir(void)
{
	if (!tf_path[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(tf_path, sizeof tf_path, "%s/steno-formats-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		cr_assert_not_null(mkdtemp(tf_path), "mkdtemp");
	}
	return tf_path;
}

void tf_cleanup(void)
{
	if (!tf_path[0])
		return;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tf_path);
	int rc = system(cmd);
	(void)rc;
	tf_path[0] = 0;
}

char *tf_write(const char *name, const void *data, size_t len)
{
	static char paths[8][512];
	static int slot;
	char *p = paths[slot++ % 8];
	snprintf(p, 512, "%s/%s", tf_dir(), name);
	FILE *f = fopen(p, "wb");
	cr_assert_not_null(f, "open %s", p);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
	return p;
}

int tf_have(const char *prog)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

int tf_run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p, "popen %s", cmd);
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	cr_assert_not_null(buf);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
	}
	buf[len] = 0;
	int st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int tf_xml_ok(const char *name, const void *data, size_t len)
{
	if (!tf_have("xmllint"))
		cr_skip_test("xmllint not installed (apt-get install libxml2-utils)");
	char *path = tf_write(name, data, len);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "xmllint --noout --nonet '%s' 2>&1", path);
	char *out;
	int rc = tf_run(cmd, &out);
	if (rc != 0)
		cr_log_error("xmllint %s: %s", name, out);
	free(out);
	return rc == 0;
}

unsigned char *tf_render(const char *format, const struct sb_transcript *t, const char *name,
                         const struct sb_export_options *opt, size_t *len)
{
	unsigned char *out = NULL;
	char err[256] = "";
	int rc = sb_export_render(format, t, name, opt, &out, len, err, sizeof err);
	cr_assert_eq(rc, 0, "render %s: %s", format, err);
	cr_assert_not_null(out);
	cr_assert_gt(*len, 0, "%s is empty", format);
	return out;
}

void tf_generate(struct sb_transcript *t, unsigned seed, double seconds, const char *language)
{
	cr_assert_eq(sb_transcript_generate(t, seed, seconds, language), 0);
}

void tf_tricky(struct sb_transcript *t)
{
	static const char json[] =
		"{\"language\":\"fr\",\"blocks\":["
		"{\"speaker\":\"Anne <&> \\\"Ré\\\"\",\"speaker_number\":1,\"comment\":\"a <note> & more\","
		"\"words\":[{\"text\":\"<b>Été\",\"type\":\"word\",\"data_start\":0.5,\"data_end\":1.0},"
		"{\"text\":\" \",\"type\":\"spacing\",\"data_start\":1.0,\"data_end\":1.1},"
		"{\"text\":\"&amp;\\u0001straße\",\"type\":\"word\",\"data_start\":1.1,\"data_end\":2.0,\"highlighted\":true},"
		"{\"text\":\" \",\"type\":\"spacing\",\"data_start\":2.0,\"data_end\":2.1},"
		"{\"text\":\"'quoted' $5 -->.\",\"type\":\"word\",\"data_start\":2.1,\"data_end\":3.0}]},"
		"{\"speaker\":\"Bo\",\"speaker_number\":2,"
		"\"words\":[{\"text\":\"会議は]]>今日。\",\"type\":\"word\",\"data_start\":3.5,\"data_end\":5.25}]}]}";
	char err[128] = "";
	cr_assert_eq(sb_transcript_from_json(t, json, NULL, err, sizeof err), 0, "%s", err);
}
