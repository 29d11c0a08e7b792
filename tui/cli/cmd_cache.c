/* The local store from the command line: `steno ls --cached` (and `ls` under --offline): the
 * rows last read, no request; `steno cache info` and `steno cache clear [--org ID]`. */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/timestamp.h"
#include "cli/cmd_ls.h"
#include "cli/cmds.h"
#include "cli/ctx.h"
#include "core/localdb.h"
#include "core/store.h"
#include "core/store_codec.h"

/* The account's store, or NULL with a message (cache = off, no store). */
static struct localdb *cache_open(struct cli_ctx *c)
{
	struct localdb_options o = { .cache_dir = c->paths.cache_dir,
				     .base_url = c->acct.base_url, .off = c->cfg.cache_off };
	struct localdb *db = NULL;
	char *notice = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	int rc = localdb_open(&o, &db, &notice, &err);
	if (notice)
		fprintf(stderr, "steno %s: %s\n", c->cmd, notice);
	free(notice);
	if (rc == 1) {
		steno_error_set(&err, STENO_ERR_CONFIG, "no local store: cache = off in %s",
				c->cfg.file ? c->cfg.file : "the config file");
		rc = -1;
	}
	if (rc != 0) {
		cli_fail(c, &err);
		return NULL;
	}
	return db;
}

/* The view's cached rows as one page for ls_out_page. */
static int cached_page(struct steno_store *st, const struct store_view *v, bool json,
		       struct ls_page *p)
{
	memset(p, 0, sizeof *p);
	p->typed.items = calloc(v->n ? v->n : 1, sizeof *p->typed.items);
	if (!p->typed.items)
		return -1;
	if (json && !(p->root = p->results = json_object_new_array()))
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		const struct store_transcription *r = store_view_item(st, v, i);
		if (!r)
			continue;
		if (json) {
			char *text = store_codec_transcription(&r->t);
			json_object *o = text ? json_tokener_parse(text) : NULL;
			free(text);
			if (!o)
				return -1;
			json_object_array_add(p->results, o);
		} else if (steno_transcription_copy(&p->typed.items[p->typed.n], &r->t, NULL) != 0) {
			return -1;
		}
		p->typed.n++;
		p->n++;
	}
	return 0;
}

int cache_ls(struct cli_ctx *c, const char *org, const char *folder, const char *tags,
	     struct ls_out *out)
{
	struct steno_error err;
	steno_error_clear(&err);
	struct localdb *db = cache_open(c);
	struct steno_store *st = db ? store_new() : NULL;
	if (!db)
		return CLI_EXIT_FAIL;
	if (!st || store_attach_db(st, db, NULL, NULL, &err) != 0) {
		store_free(st);
		steno_error_set(&err, STENO_ERR_NOMEM, "out of memory");
		return cli_fail(c, &err);
	}
	struct store_view *v = store_view_get(st, org, folder, tags, true);
	long n = v ? store_view_load_cached(st, v, 0) : -1;
	while (n > 0 && store_views_cache_pending(st))
		n += store_views_load_more(st, 0, STORE_CACHE_CHUNK);
	int rc = CLI_EXIT_OK;
	struct ls_page page;
	if (n < 0 || !v) {
		rc = cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_IO,
						       .message = "cannot read the local store" });
	} else if (n == 0 && !v->cached) {
		steno_error_set(&err, STENO_ERR_IO, "nothing cached for this list: read it once "
				"online (steno ls without --page, or the browser)");
		rc = cli_fail(c, &err);
	} else if (cached_page(st, v, out->json, &page) != 0) {
		ls_page_free(&page);
		rc = cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_NOMEM,
						       .message = "out of memory" });
	} else {
		char when[64] = "never";
		steno_timestamp_format(v->cached_wall_ms, when, sizeof when);
		fprintf(stderr, "steno ls: %ld cached, read %s\n", n, when);
		if (ls_out_page(out, &page) != 0)
			rc = CLI_EXIT_FAIL;
		ls_page_free(&page);
	}
	store_free(st);
	return rc;
}

char *cache_resource(struct cli_ctx *c, int kind, const char *id)
{
	struct localdb *db = cache_open(c);
	sqlite3_stmt *s = NULL;
	char *body = NULL;
	static const int act_kind[] = {-1, STORE_ACT_EXPORT, STORE_ACT_TRANSLATION_TASK,
				       STORE_ACT_ORDER};
	const char *sql = kind == 0 ? "SELECT data FROM transcriptions WHERE id = ?1"
				    : "SELECT data FROM activity WHERE id = ?1 AND kind = ?2";
	if (!db)
		return NULL;
	if (sqlite3_prepare_v2(localdb_handle(db), sql, -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
		if (kind > 0 && kind < 4)
			sqlite3_bind_int(s, 2, act_kind[kind]);
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
			body = strdup((const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	localdb_close(db);
	if (!body) {
		struct steno_error err;
		steno_error_clear(&err);
		steno_error_set(&err, STENO_ERR_IO, "%s is not in the local store (offline)", id);
		cli_fail(c, &err);
	}
	return body;
}

/* Quietly: the account's store, or NULL (cache = off, or it cannot be had). */
static struct localdb *cache_open_quiet(struct cli_ctx *c)
{
	struct localdb_options o = { .cache_dir = c->paths.cache_dir,
				     .base_url = c->acct.base_url, .off = c->cfg.cache_off };
	struct localdb *db = NULL;
	return localdb_open(&o, &db, NULL, NULL) == 0 ? db : NULL;
}

void cache_answer_keep(struct cli_ctx *c, const char *key, const char *body)
{
	struct localdb *db = cache_open_quiet(c);
	struct steno_store *st = db ? store_new() : NULL;
	if (st && store_attach_db(st, db, NULL, NULL, NULL) == 0)
		store_answer_put(st, key, body);
	else if (!st)
		localdb_close(db);
	store_free(st);
}

struct cache_keep {
	struct steno_store *st;
	struct store_view *v;
};

struct cache_keep *cache_keep_open(struct cli_ctx *c, const char *org, const char *folder,
				   const char *tags)
{
	struct localdb *db = cache_open_quiet(c);
	struct cache_keep *k = db ? calloc(1, sizeof *k) : NULL;
	struct steno_store *st = k ? store_new() : NULL;
	if (!st) {
		free(k);
		localdb_close(db);
		return NULL;
	}
	k->st = st;
	if (store_attach_db(st, db, NULL, NULL, NULL) != 0 ||
	    !(k->v = store_view_get(st, org, folder, tags, true))) {
		cache_keep_close(k);
		return NULL;
	}
	return k;
}

void cache_keep_page(struct cache_keep *k, struct steno_transcription_page *page, bool first)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (k && store_view_add_page(k->st, k->v, page, first, 0, &err) >= 0)
		return;
	steno_transcription_page_free(page);   /* not kept: the listing goes on all the same */
}

void cache_keep_close(struct cache_keep *k)
{
	if (!k)
		return;
	store_free(k->st);
	free(k);
}

/* The answer kept under key in db (malloc'd, or NULL); db is closed. */
static char *answer_from(struct localdb *db, const char *key)
{
	struct steno_store *st = db ? store_new() : NULL;
	char *body = NULL;
	if (st && store_attach_db(st, db, NULL, NULL, NULL) == 0)
		body = store_answer_get(st, key, NULL);
	else if (!st)
		localdb_close(db);
	store_free(st);
	return body;
}

char *cache_answer_quiet(struct cli_ctx *c, const char *key)
{
	return answer_from(cache_open_quiet(c), key);
}

char *cache_answer(struct cli_ctx *c, const char *key)
{
	struct localdb *db = cache_open(c);
	char *body = answer_from(db, key);
	if (db && !body) {
		struct steno_error err;
		steno_error_clear(&err);
		steno_error_set(&err, STENO_ERR_IO, "no %s in the local store (offline)", key);
		cli_fail(c, &err);
	}
	return body;
}

/* ---- steno cache ---- */

static const char cache_usage[] =
	"Usage: steno cache info [--json]\n"
	"       steno cache clear [--org ID] [--json]\n"
	"The local store of the server (see steno config paths): what was read, kept for a\n"
	"fast start and --offline.\n"
	"\n"
	"  info           where it is, its size, per organization the transcriptions kept\n"
	"                 and when its lists were last read\n"
	"  clear          forget everything, or with --org one organization's lists and\n"
	"                 transcriptions (their transcripts and index entries with them)\n"
	"  --json         one JSON object\n";

static void iso(int64_t ms, char *buf, size_t size)
{
	if (ms <= 0 || steno_timestamp_format(ms, buf, size) != 0)
		snprintf(buf, size, "never");
}

static int cache_info(struct cli_ctx *c, struct localdb *db, bool json)
{
	struct store_cache_info info;
	struct steno_error err;
	steno_error_clear(&err);
	if (store_cache_info(db, &info, &err) != 0)
		return cli_fail(c, &err);
	char when[64];
	if (json) {
		json_object *o = json_object_new_object(), *a = json_object_new_array();
		json_object_object_add(o, "path", json_object_new_string(localdb_path(db)));
		json_object_object_add(o, "bytes", json_object_new_int64(info.bytes));
		json_object_object_add(o, "items", json_object_new_int64(info.items));
		for (size_t i = 0; i < info.n; i++) {
			json_object *x = json_object_new_object();
			iso(info.orgs[i].last_read_ms, when, sizeof when);
			json_object_object_add(x, "organization_id",
					       json_object_new_string(info.orgs[i].org_id));
			json_object_object_add(x, "items", json_object_new_int64(info.orgs[i].items));
			json_object_object_add(x, "last_read", info.orgs[i].last_read_ms > 0
					       ? json_object_new_string(when) : NULL);
			json_object_array_add(a, x);
		}
		json_object_object_add(o, "organizations", a);
		out_json(stdout, o);
		json_object_put(o);
	} else {
		printf("store  %s\nsize   %lld bytes\nitems  %lld\n", localdb_path(db), info.bytes,
		       info.items);
		static const char *const heads[] = {"ORGANIZATION", "ITEMS", "LAST READ"};
		struct out_table t;
		out_table_init(&t, 3, heads);
		for (size_t i = 0; i < info.n; i++) {
			char items[32];
			snprintf(items, sizeof items, "%lld", info.orgs[i].items);
			iso(info.orgs[i].last_read_ms, when, sizeof when);
			const char *cells[] = {info.orgs[i].org_id, items, when};
			out_table_add(&t, cells);
		}
		if (info.n)
			out_table_print(&t, stdout);
		out_table_free(&t);
	}
	store_cache_info_free(&info);
	return CLI_EXIT_OK;
}

static int cache_clear(struct cli_ctx *c, struct localdb *db, const char *org, bool json)
{
	long removed = 0;
	struct steno_error err;
	steno_error_clear(&err);
	if (store_cache_clear(db, org, &removed, &err) != 0)
		return cli_fail(c, &err);
	if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "cleared", json_object_new_boolean(1));
		json_object_object_add(o, "organization_id", org ? json_object_new_string(org) : NULL);
		json_object_object_add(o, "transcriptions", json_object_new_int64(removed));
		out_json(stdout, o);
		json_object_put(o);
	} else {
		printf("cleared %s: %ld transcriptions forgotten\n",
		       org ? org : "the local store", removed);
	}
	return CLI_EXIT_OK;
}

int cmd_cache(const struct cli_globals *g, int argc, char **argv)
{
	const char *org = NULL;
	bool json = false;
	/* no operand limit here: which word is wrong is said below, the subcommand first */
	int rc = cmd_parse_simple("cache", argc, argv, &org, &json, NULL, NULL, argc);
	if (rc != 0)
		return rc < 0 ? cmd_help(cache_usage) : rc;
	const char *sub = optind < argc ? argv[optind] : NULL;
	if (!sub || (strcmp(sub, "info") != 0 && strcmp(sub, "clear") != 0))
		return cli_usage("cache", "say info or clear");
	if (optind + 1 < argc)
		return cli_usage("cache", "unexpected argument '%s'", argv[optind + 1]);
	if (org && strcmp(sub, "clear") != 0)
		return cli_usage("cache", "--org goes with clear");
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, strcmp(sub, "info") ? "cache clear" : "cache info");
	if (rc == 0)
		rc = cli_ctx_account(&c);
	struct localdb *db = rc == 0 ? cache_open(&c) : NULL;
	if (rc == 0 && !db)
		rc = CLI_EXIT_FAIL;
	const char *org_id = rc == 0 && org ? cli_org(&c, org) : NULL;   /* id or org.NAME */
	if (rc == 0 && org && !org_id)
		rc = CLI_EXIT_USAGE;
	if (rc == 0)
		rc = strcmp(sub, "info") == 0 ? cache_info(&c, db, json)
					      : cache_clear(&c, db, org_id, json);
	localdb_close(db);
	cli_ctx_close(&c);
	return rc;
}
