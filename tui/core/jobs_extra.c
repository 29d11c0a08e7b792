#include "config.h"
#include "core/jobs_extra.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs_internal.h"
#include "api/spec_tables.h"
#include "core/paths.h"
#include "core/store_codec.h"

#define TRANSCRIPT_MAX_BYTES (64u * 1024 * 1024)

int64_t jobs_extra_now_ms(void)
{
	return jobs_now_ms();
}

int jobs_extra_remember(struct steno_state *st, const char *base_url, const char *org_id,
			const struct steno_job *j, int64_t wall_ms)
{
	enum state_watch_kind kind;
	enum spec_state_kind sk;
	switch (j->kind) {
	case JOB_EXPORT:
	case JOB_DOWNLOAD: kind = STATE_WATCH_EXPORT; sk = SPEC_STATE_EXPORT; break;
	case JOB_TRANSLATION_TASK: kind = STATE_WATCH_TASK; sk = SPEC_STATE_TRANSLATION_TASK; break;
	case JOB_ORDER:
	case JOB_TRANSLATION_ORDER:
	case JOB_CONFIRM: kind = STATE_WATCH_ORDER; sk = SPEC_STATE_ORDER; break;
	case JOB_TRANSCRIBE:
	default: return 0;
	}
	char origin[512];
	if (!st || !j->resource_id || !state_origin(base_url, origin, sizeof origin))
		return st && j->resource_id ? -1 : 0;
	struct steno_error err;
	steno_error_clear(&err);
	if (state_watch_add(st, origin, org_id, kind, j->resource_id, wall_ms, &err) < 0)
		return -1;
	if (j->state && spec_state_is_final(sk, j->state))
		state_watch_final(st, origin, org_id, kind, j->resource_id, wall_ms);
	if (j->step == JOB_STEP_DONE || j->step == JOB_STEP_FAILED || j->step == JOB_STEP_CANCELLED) {
		/* in the words the store's row got (core/jobs.c job_record_end) */
		char text[STATE_JOB_END_MAX];
		struct state_job_end end = { jobs_end_text(j, text, sizeof text),
			j->step == JOB_STEP_FAILED, j->state, wall_ms };
		state_watch_job_end(st, origin, org_id, kind, j->resource_id, &end);
	}
	return 0;
}

int jobs_extra_organizations(struct steno_http *http, steno_api_organizations_cb cb, void *ud,
			     struct steno_error *err)
{
	return steno_api_organizations_list(http, cb, ud, err);
}

void jobs_extra_organizations_keep(struct steno_store *st,
				   const struct steno_organization_list *l)
{
	char *body = st ? store_codec_organizations(l) : NULL;
	if (body)
		store_answer_put(st, "organizations", body);
	free(body);
}

int jobs_extra_organizations_kept(struct steno_store *st, struct steno_organization_list *out)
{
	char *body = st ? store_answer_get(st, "organizations", NULL) : NULL;
	int rc = body ? steno_organization_list_parse(body, strlen(body), out, NULL) : -1;
	free(body);
	return rc;
}

int jobs_extra_glossaries(struct steno_http *http, const char *org_id, steno_api_glossaries_cb cb,
			  void *ud, struct steno_error *err)
{
	return steno_api_glossaries_list(http, org_id, cb, ud, err);
}

int jobs_extra_style_guides(struct steno_http *http, const char *org_id,
			    steno_api_style_guides_cb cb, void *ud, struct steno_error *err)
{
	return steno_api_style_guides_list(http, org_id, cb, ud, err);
}

int jobs_extra_order_get(struct steno_http *http, const char *order_id, steno_api_order_cb cb,
			 void *ud, struct steno_error *err)
{
	return steno_api_order_retrieve(http, order_id, cb, ud, err);
}

/* One delete in flight. Ownership: the endpoint call's; freed by on_deleted, or by
 * on_delete_dropped when the call is cancelled (jobs_extra_cancel) or dropped with the engine. */
struct delete_ctx {
	struct steno_store *store;
	char *id;
	steno_api_done_cb cb;
	void *ud;
};

static void delete_ctx_free(struct delete_ctx *c)
{
	free(c->id);
	free(c);
}

static void on_deleted(void *ud, const struct steno_error *err)
{
	struct delete_ctx *c = ud;
	bool gone = !err || (err->kind == STENO_ERR_HTTP && err->http_status == 410);
	if (gone && c->store)
		store_transcription_remove(c->store, c->id);
	c->cb(c->ud, gone ? NULL : err);
	delete_ctx_free(c);
}

static void on_delete_dropped(void *ud)
{
	delete_ctx_free(ud);
}

int jobs_extra_delete(struct steno_http *http, struct steno_store *store, const char *id,
		      bool permanent, steno_api_done_cb cb, void *ud, struct steno_error *err)
{
	/* the context rides as the call's ud; the request's owner stays the caller's ud, so
	 * jobs_extra_cancel(http, ud) finds it, and the drop hook frees the context */
	struct delete_ctx *c = calloc(1, sizeof *c);
	if (!c || !(c->id = strdup(id ? id : ""))) {
		free(c);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	c->store = store;
	c->cb = cb;
	c->ud = ud;
	struct steno_api_call call = { .ud = c, .owner = ud, .drop = on_delete_dropped };
	if (steno_api_transcription_delete_call(http, id, permanent, on_deleted, &call, err) != 0) {
		delete_ctx_free(c);
		return -1;
	}
	return 0;
}

void jobs_extra_cancel(struct steno_http *http, const void *ud)
{
	steno_http_cancel_owner(http, ud);   /* deletes' contexts go with their drop hook */
}

int jobs_extra_transcript_path(const char *cache_dir, const char *id, char *dir, size_t dir_size,
			       char *file, size_t file_size)
{
	if (!cache_dir || !cache_dir[0] || !id || !id[0] || strlen(id) > 128)
		return -1;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_'))
			return -1;
	int a = snprintf(dir, dir_size, "%s/transcripts", cache_dir);
	int b = snprintf(file, file_size, "%s/transcripts/%s.json", cache_dir, id);
	return a < 0 || (size_t)a >= dir_size || b < 0 || (size_t)b >= file_size ? -1 : 0;
}

int jobs_extra_transcript_load(const char *path, struct steno_transcript *out,
			       struct steno_error *err)
{
	char *body = NULL;
	size_t len = 0;
	memset(out, 0, sizeof *out);
	if (paths_read_file(path, TRANSCRIPT_MAX_BYTES, &body, &len, err) != 0)
		return -1;
	int rc = steno_transcript_parse(body, len, out, err);
	free(body);
	return rc;
}
