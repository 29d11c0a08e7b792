/* seed: demo data. Names carry non-ASCII, CJK and one terminal escape sequence on purpose
 * (the client must render them safely). Content is deterministic; times follow the clock. */
#include "config.h"

#include "seed.h"

#include "clock.h"
#include "db.h"
#include "folders.h"
#include "model.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seed_names[] = {
	"Interview with Zoë Çelik", "Podcast épisode %ld", "会議の録音 %ld", "Quarterly review Q%ld",
	"Entrevista — Señora Muñoz", "Vorlesung Übung %ld", "播客 第%ld集", "Focus group #%ld",
	"\x1b[31mRed alert\x1b[0m escape test", "Κατάθεση μάρτυρα %ld", "Отчёт %ld", "회의록 %ld"};
static const char *const seed_langs[] = {"en-US", "fr-FR", "ja-JP", "en-GB", "es-ES", "de-DE", "cmn-Hans-CN",
					 "en-US", "en-AU", "el-GR", "ru-RU", "ko-KR", "pt-BR", "it-IT", "nl-NL"};
static const char *const seed_tags[] = {"interview", "podcast", "legal", "medical", "draft", "final", "日本語", "café"};
static const char *const seed_folders[] = {"Interviews", "Interviews/2024", "Interviews/2024/Q1 — café",
					   "Podcasts", "字幕/日本語", "Research/Fieldwork/Ümlaut"};

enum { N_NAMES = sizeof seed_names / sizeof seed_names[0], N_LANGS = sizeof seed_langs / sizeof seed_langs[0] };

static void seed_tags_json(long i, char *out, size_t n)
{
	size_t len = (size_t)snprintf(out, n, "[");
	for (int k = 0; k < 8; k++)
		if ((i * 7 + k * 3) % 5 == 0 || (k == 0 && i % 2 == 0))
			len += (size_t)snprintf(out + len, n - len, "%s\"%s\"", len > 1 ? "," : "", seed_tags[k]);
	snprintf(out + len, n - len, "]");
}

/* State plan by i % 12: 0-4 done, 5 transcribing, 6 ingesting, 7 failed, 8 locked,
 * 9 demo, 10 initial, 11 aligning. */
static void seed_bind_state(sqlite3_stmt *st, long i, double created, double now)
{
	int k = (int)(i % 12);
	double ingest_end = created + 2, work_end = created + 60;
	const char *final = "automatic_done", *fixed = NULL, *reason = NULL, *msg = NULL, *service = "auto";
	int fetch = 1;
	if (k == 5 || k == 11) {
		ingest_end = now - 10;
		work_end = now + 6 * 3600;
		service = k == 5 ? "pro" : "alignment";
	} else if (k == 6) {
		ingest_end = now + 3600;
		work_end = now + 7200;
	} else if (k == 7) {
		final = "failed";
		fetch = 2;
		work_end = ingest_end;
		reason = i % 24 == 7 ? "download_failed" : "unsupported_media";
		msg = i % 24 == 7 ? "tmp_url could not be downloaded: the server answered HTTP 404"
				  : "no audio could be recognized in the media file";
	} else if (k == 8) {
		final = "locked";
		work_end = ingest_end;
		reason = "insufficient_credits";
		msg = "the organization does not have enough credit";
	} else if (k == 9 || k == 10) {
		fixed = k == 9 ? "demo" : "initial";
	}
	sqlite3_bind_text(st, 9, service, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 10, fetch);
	sqlite3_bind_double(st, 11, ingest_end);
	sqlite3_bind_double(st, 12, work_end);
	sqlite3_bind_text(st, 13, final, -1, SQLITE_STATIC);
	db_bind_text(st, 14, fixed);
	db_bind_text(st, 15, reason);
	db_bind_text(st, 16, msg);
}

static int seed_one(sqlite3_stmt *st, int64_t org, const int64_t *folders, int nfolders, long i, long n, double now)
{
	char id[33], label[48], name[160], tags[160];
	snprintf(label, sizeof label, "tr-%lld", (long long)org);
	util_det_hex(label, i, id);
	const char *fmt = seed_names[i % N_NAMES];
	if (strstr(fmt, "%ld")) {
		/* Formats come from the fixed table above. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(name, sizeof name, fmt, i + 1);
#pragma GCC diagnostic pop
	} else {
		snprintf(name, sizeof name, "%s", fmt);
	}
	seed_tags_json(i, tags, sizeof tags);
	double created = now - (double)(n - i) * 600.0;
	int64_t secs = 30 + (i * 37) % 3600;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_int64(st, 3, folders[i % nfolders]);
	sqlite3_bind_text(st, 4, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, seed_langs[i % N_LANGS], -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, i % 5 == 3);
	sqlite3_bind_text(st, 7, tags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 8, created);
	seed_bind_state(st, i, created, now);
	sqlite3_bind_int64(st, 17, secs);
	sqlite3_bind_int64(st, 18, media_minutes(secs) * 20);
	sqlite3_bind_int64(st, 19, i + 1);
	sqlite3_bind_text(st, 20, "Speaker one. Speaker two answers. The end.", -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int seed_transcriptions(int64_t org, long n)
{
	int64_t folders[8];
	int nf = 0;
	folders[nf++] = folder_workspace(org);
	for (size_t k = 0; k < sizeof seed_folders / sizeof seed_folders[0]; k++)
		folders[nf++] = folder_by_path(org, seed_folders[k]);
	long base = (long)db_scalar_int("SELECT COUNT(*) FROM transcriptions WHERE org_id=?", org, 0);
	if (db_exec("BEGIN IMMEDIATE") != 0)
		return -1;
	sqlite3_stmt *st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, is_subtitle, tags,"
				   " created_at, updated_at, started_at, service, sharing, fetch, ingest_end, work_end,"
				   " final_state, fixed_state, failure_reason, failure_message, audio_seconds, cost_cents,"
				   " seed, document, tmp_url) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?8,?8,?9,0,?10,?11,?12,?13,"
				   "?14,?15,?16,?17,?18,?19,?20,'https://media.example/seed.wav')");
	int rc = st ? 0 : -1;
	double now = clock_now();
	for (long i = 0; rc == 0 && i < n; i++)
		rc = seed_one(st, org, folders, nf, base + i, base + n, now);
	sqlite3_finalize(st);
	db_exec(rc == 0 ? "COMMIT" : "ROLLBACK");
	return rc;
}

static void seed_exec_fmt(const char *fmt, int64_t org, double now)
{
	char sql[2048];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(sql, sizeof sql, fmt, (long long)org, now, now);
#pragma GCC diagnostic pop
	db_exec(sql);
}

static void seed_lists(int64_t org, int full)
{
	double now = clock_now() - 86400.0 * 30;
	seed_exec_fmt("INSERT INTO glossaries(org_id, name, source_language, target_languages, organization_default,"
		      " imported, created_at, updated_at) VALUES(%lld, 'Medical terms', 'en', '[\"fr\",\"de\",\"es\"]', 1,"
		      " 0, %f, %f)", org, now);
	seed_exec_fmt("INSERT INTO style_guides(org_id, name, operation, organization_default, verbatim, fix_grammar,"
		      " sdh, speaker_id, notation_tags, created_at, updated_at) VALUES(%lld, 'House style', 'transcription',"
		      " 1, 0, 1, 0, 'full_name', 'standard', %f, %f)", org, now);
	if (!full)
		return;
	seed_exec_fmt("INSERT INTO glossaries(org_id, name, source_language, target_languages, organization_default,"
		      " imported, created_at, updated_at) VALUES(%lld, 'Glossaire juridique — Cour d''appel', 'fr',"
		      " '[\"en\",\"de\"]', 0, 1, %f, %f)", org, now);
	seed_exec_fmt("INSERT INTO glossaries(org_id, name, source_language, target_languages, organization_default,"
		      " imported, created_at, updated_at) VALUES(%lld, '用語集（技術）', 'ja', '[\"en\",\"zh\"]', 0, 0, %f, %f)",
		      org, now);
	seed_exec_fmt("INSERT INTO style_guides(org_id, name, operation, organization_default, verbatim, fix_grammar,"
		      " sdh, speaker_id, notation_tags, created_at, updated_at) VALUES(%lld, 'Verbatim (strict)',"
		      " 'transcription', 0, 1, 0, 0, 'default', 'custom', %f, %f)", org, now);
	seed_exec_fmt("INSERT INTO style_guides(org_id, name, operation, organization_default, verbatim, fix_grammar,"
		      " sdh, speaker_id, notation_tags, created_at, updated_at) VALUES(%lld, 'Sous-titres SDH',"
		      " 'subtitles', 1, 0, 1, 1, 'gender', 'no', %f, %f)", org, now);
}

static void seed_uuid(const char *label, long i, char out[37])
{
	char h[33];
	util_det_hex(label, i, h);
	h[12] = '4';
	h[16] = "89ab"[h[16] % 4];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

struct seed_order_plan {
	const char *fixed, *tr_fixed, *tr_final, *reason, *service;
	int submitted, locked, charged, fetch;
	double work_from_now; /* work_end relative to now */
};

static const struct seed_order_plan order_plans[] = {
	{NULL, "initial", NULL, NULL, "auto", 0, 0, 0, 1, 0},
	{NULL, NULL, "automatic_done", NULL, "pro", 1, 0, 1, 1, 6 * 3600},
	{NULL, NULL, "locked", "insufficient_credits", "pro", 1, 1, 2, 1, -3000},
	{NULL, NULL, "automatic_done", NULL, "auto", 1, 0, 1, 1, -3000},
	{NULL, NULL, "failed", "download_failed", "auto", 1, 0, 0, 2, -3000},
	{"waiting_for_payment", NULL, "automatic_done", NULL, "pro", 1, 0, 1, 1, -3000},
	{"canceled", NULL, "automatic_done", NULL, "auto", 1, 0, 1, 1, -3000},
	{"expired", NULL, "automatic_done", NULL, "auto", 1, 0, 1, 1, -3000},
	{"free_trial_submitted", NULL, "automatic_done", NULL, "auto", 1, 0, 1, 1, -3000},
	{"free_trial_fulfilled", NULL, "automatic_done", NULL, "auto", 1, 0, 1, 1, -3000},
};

static int64_t seed_order(int64_t org, int64_t folder, long i, const struct seed_order_plan *p, double now)
{
	char oid[37], tid[33], label[48], name[64];
	snprintf(label, sizeof label, "order-%lld", (long long)org);
	seed_uuid(label, i, oid);
	snprintf(label, sizeof label, "otr-%lld", (long long)org);
	util_det_hex(label, i, tid);
	snprintf(name, sizeof name, "Commande n°%ld — 注文", i + 1);
	sqlite3_stmt *st = db_prep("INSERT INTO orders(id, org_id, folder_id, kind, service, language, url, created_at,"
				   " submitted_at, locked, charged, fixed_state, name, last_notified, boost)"
				   " VALUES(?,?,?,'transcription',?,'en-US','https://media.example/order.mp3',?,?,?,?,?,?,"
				   "NULL,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, oid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_int64(st, 3, folder);
	sqlite3_bind_text(st, 4, p->service, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 5, now - 3600);
	if (p->submitted)
		sqlite3_bind_double(st, 6, now - 3590);
	sqlite3_bind_int(st, 7, p->locked);
	sqlite3_bind_int(st, 8, p->charged);
	db_bind_text(st, 9, p->fixed);
	sqlite3_bind_text(st, 10, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, (int)(i % 2));
	if (db_step_done(st) != 0)
		return -1;
	st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service, is_subtitle, sharing,"
		     " tags, tmp_url, created_at, updated_at, started_at, fetch, ingest_end, work_end, final_state,"
		     " fixed_state, failure_reason, audio_seconds, seed, order_id, cost_cents) VALUES(?1,?2,?3,?4,'en-US',"
		     "?5,0,0,'[\"order\"]','https://media.example/order.mp3',?6,?6,?6,?7,?8,?9,?10,?11,?12,754,?13,?14,"
		     "?15)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, tid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_int64(st, 3, folder);
	sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, p->service, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 6, now - 3600);
	sqlite3_bind_int(st, 7, p->fetch);
	if (!p->tr_fixed) {
		sqlite3_bind_double(st, 8, now - 3580);
		sqlite3_bind_double(st, 9, now + p->work_from_now);
	}
	db_bind_text(st, 10, p->tr_final);
	db_bind_text(st, 11, p->tr_fixed);
	db_bind_text(st, 12, p->reason);
	sqlite3_bind_int64(st, 13, 1000 + i);
	sqlite3_bind_text(st, 14, oid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 15, p->charged == 1 ? media_minutes(754) * (strcmp(p->service, "pro") ? 20 : 150) : 0);
	return db_step_done(st) == 0 ? sqlite3_last_insert_rowid(db_conn()) : -1;
}

static void seed_translation_order(int64_t org, int64_t folder, int64_t src_rid, double now)
{
	char oid[37], tid[33], label[48];
	snprintf(label, sizeof label, "torder-%lld", (long long)org);
	seed_uuid(label, 0, oid);
	util_det_hex(label, 1, tid);
	sqlite3_stmt *st = db_prep("INSERT INTO orders(id, org_id, folder_id, kind, service, language, created_at,"
				   " submitted_at, charged, source_rid, target_languages, name) VALUES(?,?,?,'translation',"
				   "'auto','en-US',?,?,1,?,'[\"fr\"]','Translation order')");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, oid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_int64(st, 3, folder);
	sqlite3_bind_double(st, 4, now - 1800);
	sqlite3_bind_double(st, 5, now - 1800);
	sqlite3_bind_int64(st, 6, src_rid);
	if (db_step_done(st) != 0)
		return;
	st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service, is_subtitle, sharing,"
		     " tags, created_at, updated_at, started_at, fetch, ingest_end, work_end, final_state, audio_seconds,"
		     " seed, order_id, source_rid) SELECT ?1, org_id, folder_id, name || ' (fr)', 'fr', 'auto', 0, 0, '[]',"
		     " ?2, ?2, ?2, 1, ?2, ?2 + 5, 'automatic_done', audio_seconds, seed, ?3, rid FROM transcriptions"
		     " WHERE rid=?4");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, tid, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 2, now - 1800);
	sqlite3_bind_text(st, 3, oid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, src_rid);
	db_step_done(st);
}

static void seed_export(int64_t org, long i, const char *format, const char *fixed, double created, int64_t rid,
			const char *id_text)
{
	char id[33], label[48], options[256], rids[32];
	snprintf(label, sizeof label, "export-%lld", (long long)org);
	util_det_hex(label, i, id);
	snprintf(options, sizeof options, "{\"show_timestamps\":false,\"show_speakers\":false,\"show_comments\":false,"
		 "\"show_highlights\":false,\"ids\":[\"%s\"]}", id_text);
	snprintf(rids, sizeof rids, "[%lld]", (long long)rid);
	sqlite3_stmt *st = db_prep("INSERT INTO exports(id, org_id, format, options, rids, created_at, fixed_state)"
				   " VALUES(?,?,?,?,?,?,?)");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_text(st, 3, format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, options, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, rids, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 6, created);
	db_bind_text(st, 7, fixed);
	db_step_done(st);
}

static void seed_tasks(int64_t org, int64_t src_rid, double now)
{
	char label[48], id[33], out_id[33];
	snprintf(label, sizeof label, "task-%lld", (long long)org);
	for (int k = 0; k < 2; k++) {
		util_det_hex(label, k, id);
		util_det_hex(label, 100 + k, out_id);
		double created = k == 0 ? now - 3600 : now - 5, done = k == 0 ? now - 3590 : now + 60;
		const char *target = k == 0 ? "de" : "ja";
		sqlite3_stmt *st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service,"
					   " is_subtitle, sharing, tags, created_at, updated_at, started_at, fetch, ingest_end,"
					   " work_end, final_state, audio_seconds, seed, source_rid) SELECT ?1, org_id,"
					   " folder_id, name || ' (' || ?2 || ')', ?2, 'auto', 0, 0, '[]', ?3, ?3, ?3, 1, ?3,"
					   " ?4, 'automatic_done', audio_seconds, seed, rid FROM transcriptions WHERE rid=?5");
		if (!st)
			return;
		sqlite3_bind_text(st, 1, out_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, target, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, created);
		sqlite3_bind_double(st, 4, done);
		sqlite3_bind_int64(st, 5, src_rid);
		if (db_step_done(st) != 0)
			return;
		int64_t out = sqlite3_last_insert_rowid(db_conn());
		st = db_prep("INSERT INTO tasks(id, org_id, source_rid, target_language, created_at, done_at, out_rid)"
			     " VALUES(?,?,?,?,?,?,?)");
		if (!st)
			return;
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, org);
		sqlite3_bind_int64(st, 3, src_rid);
		sqlite3_bind_text(st, 4, target, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 5, created);
		sqlite3_bind_double(st, 6, done);
		sqlite3_bind_int64(st, 7, out);
		db_step_done(st);
	}
}

int seed_demo(int64_t demo_org, int64_t second_org, long n)
{
	if (seed_transcriptions(demo_org, n) != 0 || seed_transcriptions(second_org, n < 12 ? n : 12) != 0)
		return -1;
	seed_lists(demo_org, 1);
	seed_lists(second_org, 0);
	double now = clock_now();
	int64_t folder = folder_by_path(demo_org, "Orders/Ordres — 注文");
	int64_t fulfilled_rid = -1;
	for (size_t i = 0; i < sizeof order_plans / sizeof order_plans[0]; i++) {
		int64_t rid = seed_order(demo_org, folder, (long)i, &order_plans[i], now);
		if (rid < 0)
			return -1;
		if (i == 3)
			fulfilled_rid = rid;
	}
	seed_translation_order(demo_org, folder, fulfilled_rid, now);
	seed_tasks(demo_org, fulfilled_rid, now);
	struct tr_row t;
	if (tr_load_rid(fulfilled_rid, &t) == 0) {
		static const char *const fmts[] = {"txt", "srt", "pdf", "docx", "json"};
		static const char *const fixed[] = {NULL, NULL, NULL, "failed", "expired"};
		static const double ago[] = {0, 5, 3600, 3600, 3 * 86400};
		for (int k = 0; k < 5; k++)
			seed_export(demo_org, k, fmts[k], fixed[k], now - ago[k], t.rid, t.id);
		tr_row_free(&t);
	}
	return 0;
}
