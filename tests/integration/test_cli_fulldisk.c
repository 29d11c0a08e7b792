/* `steno download` on a full disk says "No space left on device" (issue 13 item 8): the
 * destination is a small tmpfs (in a mount namespace of this test process and its children
 * only) filled to the last block before the download; no .part file is left behind. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;
static char full_dir[64];

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
	if (full_dir[0]) {
		umount2(full_dir, MNT_DETACH);
		rmdir(full_dir);
	}
}

/* A ready export of a finished 10 min transcription (its text is larger than stdio's buffer), made through the API; its id into eid. */
static void ready_export(char *eid, size_t n)
{
	char url[1024], body[1400];
	long st = 0;
	size_t len = 0;
	void *wav = sbx_make_wav(600.0, &len);
	cr_assert_eq(sbx_upload(&sb, "talk.wav", wav, len, url, sizeof url), 0);
	free(wav);
	snprintf(body, sizeof body,
		 "{\"transcription\":{\"name\":\"talk\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}",
		 url, sb.org_id);
	json_object *o = sbx_call(&sb, "POST", "transcriptions", body, &st);
	cr_assert_eq(st, 201, "%s", json_object_to_json_string(o));
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}",
		 sbx_str(o, "id"));
	json_object_put(o);
	cr_assert_eq(sbx_advance(&sb, 3600), 0);
	o = sbx_call(&sb, "POST", "exports", body, &st);
	cr_assert_eq(st, 201, "%s", json_object_to_json_string(o));
	snprintf(eid, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
	cr_assert_eq(sbx_advance(&sb, 3600), 0);
}

/* Fills the file system of dir: a file written until ENOSPC. */
static void fill(const char *dir)
{
	char path[128], block[1024];
	snprintf(path, sizeof path, "%s/filler", dir);
	memset(block, 'x', sizeof block);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	for (int i = 0; i < 100000 && write(fd, block, sizeof block) > 0; i++)
		;
	while (write(fd, block, 1) > 0)
		;
	cr_assert_eq(errno, ENOSPC, "%s", strerror(errno));
	close(fd);
}

Test(cli_fulldisk, download_says_no_space_left, .fini = teardown, .timeout = 60)
{
	if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
		cr_skip_test("no private mount namespace here (%s): needs root, as in CI", strerror(errno));
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(sbx_start(&sb, NULL), 0, "sandbox did not start");
	char eid[64];
	ready_export(eid, sizeof eid);
	snprintf(full_dir, sizeof full_dir, "/tmp/steno-dlfull-XXXXXX");
	cr_assert_not_null(mkdtemp(full_dir));
	cr_assert_eq(mount("tmpfs", full_dir, "tmpfs", 0, "size=64k"), 0, "mount: %s", strerror(errno));
	fill(full_dir);

	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"download", eid, "-o", full_dir, NULL}), 0);
	cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
	cr_expect(strstr(r.err, "No space left on device"), "stderr: %s", r.err);
	cli_result_free(&r);
	DIR *d = opendir(full_dir);
	cr_assert(d);
	for (struct dirent *e; (e = readdir(d));)
		cr_expect(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "filler") == 0,
			  "left behind: %s", e->d_name);
	closedir(d);
}
