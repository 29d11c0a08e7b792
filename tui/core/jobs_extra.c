#include "config.h"
#include "core/jobs_extra.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs_internal.h"
#include "core/paths.h"

#define TRANSCRIPT_MAX_BYTES (64u * 1024 * 1024)

int64_t jobs_extra_now_ms(void)
{
	return jobs_now_ms();
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

/* One delete in flight. Ownership: freed by on_deleted (or dropped with its owner). */
struct delete_ctx {
	struct delete_ctx *next;
	struct steno_http *http;
	struct steno_store *store;
	char *id;
	steno_api_done_cb cb;
	void *ud;
};

/* Deletes in flight, so that jobs_extra_cancel can find them by the caller's ud (the
 * engine only knows the context as owner). One thread: a plain list. */
static struct delete_ctx *pending;

static void pending_unlink(struct delete_ctx *c)
{
	for (struct delete_ctx **pp = &pending; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			return;
		}
}

static void on_deleted(void *ud, const struct steno_error *err)
{
	struct delete_ctx *c = ud;
	pending_unlink(c);
	bool gone = !err || (err->kind == STENO_ERR_HTTP && err->http_status == 410);
	if (gone && c->store)
		store_transcription_remove(c->store, c->id);
	c->cb(c->ud, gone ? NULL : err);
	free(c->id);
	free(c);
}

int jobs_extra_delete(struct steno_http *http, struct steno_store *store, const char *id,
		      bool permanent, steno_api_done_cb cb, void *ud, struct steno_error *err)
{
	/* the request's owner must be the caller's ud (jobs_extra_cancel), so the context
	 * rides in a small allocation that the callback frees */
	struct delete_ctx *c = calloc(1, sizeof *c);
	if (!c || !(c->id = strdup(id ? id : ""))) {
		free(c);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	c->store = store;
	c->http = http;
	c->cb = cb;
	c->ud = ud;
	if (steno_api_transcription_delete(http, id, permanent, on_deleted, c, err) != 0) {
		free(c->id);
		free(c);
		return -1;
	}
	c->next = pending;
	pending = c;
	return 0;
}

int jobs_extra_download(struct steno_http *http, const struct steno_export *exp, const char *dir,
			bool overwrite, steno_progress_fn progress, steno_download_done_fn done,
			void *ud, struct steno_error *err)
{
	return steno_api_export_download(http, exp, dir, NULL, overwrite, progress, done, ud, err);
}

void jobs_extra_cancel(struct steno_http *http, const void *ud)
{
	steno_http_cancel_owner(http, ud);
	for (struct delete_ctx **pp = &pending; *pp;) {
		struct delete_ctx *c = *pp;
		if (c->ud != ud || c->http != http) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		steno_http_cancel_owner(http, c);
		free(c->id);
		free(c);
	}
}

/* The endpoint call frees its own part when the engine drops the request, but it has no
 * hook for the caller's context: the contexts still listed are freed here. */
void jobs_extra_forget(struct steno_http *http)
{
	for (struct delete_ctx **pp = &pending; *pp;) {
		struct delete_ctx *c = *pp;
		if (c->http != http) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		steno_http_cancel_owner(http, c);
		free(c->id);
		free(c);
	}
}

size_t jobs_extra_in_flight(const struct steno_http *http)
{
	size_t n = 0;
	for (const struct delete_ctx *c = pending; c; c = c->next)
		n += c->http == http;
	return n;
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
