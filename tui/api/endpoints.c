#include "config.h"
#include "api/endpoints.h"
#include "api/error_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints_internal.h"
#include "api/transcript.h"
#include "api/url.h"

/* Wrappers with the generic signatures of struct ep_type, one set per result type: calling
 * each function through its own type keeps this free of function-pointer casts at calls. */
#define EP_TYPE(name, T, parse_fn, free_fn, cb_t)                                            \
	static int name##_parse(const char *b, size_t n, void *out, struct steno_error *e)    \
	{                                                                                     \
		return parse_fn(b, n, (T *)out, e);                                           \
	}                                                                                     \
	static void name##_free(void *p)                                                      \
	{                                                                                     \
		free_fn((T *)p);                                                              \
	}                                                                                     \
	static void name##_deliver(ep_any_cb cb, void *ud, void *res,                         \
				   const struct steno_error *e)                               \
	{                                                                                     \
		((cb_t)cb)(ud, (T *)res, e);                                                  \
	}                                                                                     \
	static const struct ep_type name##_type = { sizeof(T), name##_parse, name##_free,     \
						    name##_deliver }

EP_TYPE(upload, struct steno_upload, steno_upload_parse, steno_upload_free, steno_api_upload_cb);
EP_TYPE(tr, struct steno_transcription, steno_transcription_parse, steno_transcription_free,
	steno_api_transcription_cb);
EP_TYPE(page, struct steno_transcription_page, steno_transcription_page_parse,
	steno_transcription_page_free, steno_api_page_cb);
EP_TYPE(exp, struct steno_export, steno_export_parse, steno_export_free, steno_api_export_cb);
EP_TYPE(task, struct steno_translation_task, steno_translation_task_parse,
	steno_translation_task_free, steno_api_task_cb);
EP_TYPE(order, struct steno_order, steno_order_parse, steno_order_free, steno_api_order_cb);
EP_TYPE(orgs, struct steno_organization_list, steno_organization_list_parse,
	steno_organization_list_free, steno_api_organizations_cb);
EP_TYPE(gloss, struct steno_glossary_list, steno_glossary_list_parse, steno_glossary_list_free,
	steno_api_glossaries_cb);
EP_TYPE(style, struct steno_style_guide_list, steno_style_guide_list_parse,
	steno_style_guide_list_free, steno_api_style_guides_cb);

/* The content of a downloadUrl, parsed. */
static int content_body_parse(const char *body, size_t len, struct steno_api_content *out,
			 struct steno_error *err)
{
	return steno_transcript_parse(body, len, &out->transcript, err) != 0 ? -1 : 0;
}

static void content_body_free(struct steno_api_content *c)
{
	steno_transcript_free(&c->transcript);
}

EP_TYPE(content, struct steno_api_content, content_body_parse, content_body_free, steno_api_content_cb);

static void none_deliver(ep_any_cb cb, void *ud, void *res, const struct steno_error *e)
{
	((steno_api_done_cb)cb)(ud, e);
}

static const struct ep_type none_type = { 0, NULL, NULL, none_deliver };

#define CB(f) ((ep_any_cb)(f))

static int require(const char *v, const char *field, struct steno_error *err)
{
	if (!v || !*v)
		return steno_error_invalid(err, field, "%s is required", field);
	return 0;
}

/* base + path [+ "/" + escaped id [+ tail]] as a new string; NULL on allocation failure. */
static char *url_for(struct steno_http *http, const char *path, const char *id, const char *tail)
{
	struct steno_url_builder b;
	steno_url_builder_init(&b, steno_http_base_url(http), path);
	if (id)
		steno_url_builder_segment(&b, id);
	if (tail) {
		char *u = steno_url_builder_take(&b);
		if (!u)
			return NULL;
		size_t n = strlen(u) + strlen(tail) + 1;
		char *full = malloc(n);
		if (full)
			snprintf(full, n, "%s%s", u, tail);
		free(u);
		return full;
	}
	return steno_url_builder_take(&b);
}

static int get_by_id(struct steno_http *http, const char *path, const char *id,
		     const struct ep_type *type, ep_any_cb cb, void *ud, struct steno_error *err)
{
	if (require(id, "id", err) != 0)
		return -1;
	char *url = url_for(http, path, id, NULL);
	int rc = ep_submit(http, "GET", url, NULL, NULL, type, cb, ud, err);
	free(url);
	return rc;
}

static int post_json(struct steno_http *http, const char *path, char *body,
		     const struct ep_type *type, ep_any_cb cb, void *ud, struct steno_error *err)
{
	char *url = url_for(http, path, NULL, NULL);
	int rc = ep_submit(http, "POST", url, body, NULL, type, cb, ud, err);
	free(url);
	free(body);
	return rc;
}

int steno_api_uploads_new(struct steno_http *http, const char *filename, steno_api_upload_cb cb,
			  void *ud, struct steno_error *err)
{
	if (require(filename, "filename", err) != 0)
		return -1;
	struct steno_url_builder b;
	steno_url_builder_init(&b, steno_http_base_url(http), "/uploads/new");
	steno_url_builder_param(&b, "filename", filename);
	char *url = steno_url_builder_take(&b);
	int rc = ep_submit(http, "GET", url, NULL, NULL, &upload_type, CB(cb), ud, err);
	free(url);
	return rc;
}

/* The upload's callback has the engine's signature; adapt it to steno_api_done_cb. */
struct put_ctx {
	steno_api_done_cb cb;
	steno_progress_fn progress;
	void *ud;
};

static void put_progress(void *p, uint64_t now, uint64_t total)
{
	struct put_ctx *c = p;
	if (c->progress)
		c->progress(c->ud, now, total);
}

/* A refused PUT keeps what the storage said (an S3-style XML error, the sandbox's 413). */
static void put_done(void *p, const struct steno_http_response *resp, const struct steno_error *e)
{
	struct put_ctx c = *(struct put_ctx *)p;
	struct steno_error told;
	free(p);
	c.cb(c.ud, e ? steno_error_refused("the storage refused the upload", resp, e, &told) : NULL);
}

int steno_api_upload_put(struct steno_http *http, const char *signed_url, const char *path,
			 steno_progress_fn progress, steno_api_done_cb cb, void *ud,
			 struct steno_error *err)
{
	if (require(signed_url, "signedUrl", err) != 0 || require(path, "path", err) != 0)
		return -1;
	struct put_ctx *c = malloc(sizeof(*c));
	if (!c)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	c->cb = cb;
	c->progress = progress;
	c->ud = ud;
	struct steno_upload_request req = {
		.signed_url = signed_url, .path = path, .owner = ud,
		.progress = put_progress, .done = put_done, .ud = c, .drop = free,
	};
	if (steno_http_upload(http, &req, NULL, err) != 0) {
		free(c);
		return -1;
	}
	return 0;
}

int steno_api_transcriptions_list(struct steno_http *http, const struct steno_api_list_query *q,
				  steno_api_page_cb cb, void *ud, struct steno_error *err)
{
	struct steno_url_builder b;
	char page[32], *tags = NULL;
	size_t len = 0;
	for (size_t i = 0; q && i < q->n_tags; i++)
		len += strlen(q->tags[i]) + 1;
	if (len && !(tags = calloc(1, len)))
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = 0; tags && i < q->n_tags; i++) {
		if (strchr(q->tags[i], ','))
			return free(tags), steno_error_invalid(err, "tags", "a tag cannot contain ','");
		if (i)
			strcat(tags, ",");
		strcat(tags, q->tags[i]);
	}
	steno_url_builder_init(&b, steno_http_base_url(http), "/transcriptions");
	if (q) {
		steno_url_builder_param(&b, "organization_id", q->organization_id);
		steno_url_builder_param(&b, "folder_id", q->folder_id);
		snprintf(page, sizeof(page), "%ld", q->page);
		steno_url_builder_param(&b, "page", q->page >= 0 ? page : NULL);
		steno_url_builder_param(&b, "tags", tags);
	}
	free(tags);
	char *url = steno_url_builder_take(&b);
	int rc = ep_submit(http, "GET", url, NULL, NULL, &page_type, CB(cb), ud, err);
	free(url);
	return rc;
}

int steno_api_transcriptions_list_url(struct steno_http *http, const char *url,
				      steno_api_page_cb cb, void *ud, struct steno_error *err)
{
	if (require(url, "url", err) != 0)
		return -1;
	return ep_submit(http, "GET", url, NULL, NULL, &page_type, CB(cb), ud, err);
}

int steno_api_transcription_create(struct steno_http *http,
				   const struct steno_transcription_create_req *req,
				   steno_api_transcription_cb cb, void *ud, struct steno_error *err)
{
	char *body = NULL;
	if (steno_build_transcription_create(req, &body, err) != 0)
		return -1;
	return post_json(http, "/transcriptions", body, &tr_type, CB(cb), ud, err);
}

int steno_api_transcription_retrieve(struct steno_http *http, const char *id,
				     steno_api_transcription_cb cb, void *ud, struct steno_error *err)
{
	return get_by_id(http, "/transcriptions", id, &tr_type, CB(cb), ud, err);
}

int steno_api_transcription_content(struct steno_http *http, const char *url,
				    steno_api_content_cb cb, void *ud, struct steno_error *err)
{
	if (require(url, "downloadUrl", err) != 0)
		return -1;
	return ep_submit(http, "GET", url, NULL, NULL, &content_type, CB(cb), ud, err);
}

int steno_api_transcription_delete_call(struct steno_http *http, const char *id, int permanent,
					steno_api_done_cb cb, const struct steno_api_call *call,
					struct steno_error *err)
{
	if (!call)
		return steno_error_invalid(err, "call", "the call's link is required");
	if (require(id, "id", err) != 0)
		return -1;
	char *url = url_for(http, "/transcriptions", id, permanent ? "?permanent=true" : NULL);
	int rc = ep_submit_call(http, "DELETE", url, NULL, NULL, &none_type, CB(cb), call, err);
	free(url);
	return rc;
}

int steno_api_transcription_delete(struct steno_http *http, const char *id, int permanent,
				   steno_api_done_cb cb, void *ud, struct steno_error *err)
{
	struct steno_api_call call = { .ud = ud, .owner = ud, .drop = NULL };
	return steno_api_transcription_delete_call(http, id, permanent, cb, &call, err);
}

int steno_api_export_create(struct steno_http *http, const struct steno_export_create_req *req,
			    steno_api_export_cb cb, void *ud, struct steno_error *err)
{
	char *body = NULL;
	if (steno_build_export_create(req, &body, err) != 0)
		return -1;
	return post_json(http, "/exports", body, &exp_type, CB(cb), ud, err);
}

int steno_api_export_retrieve(struct steno_http *http, const char *id, steno_api_export_cb cb,
			      void *ud, struct steno_error *err)
{
	return get_by_id(http, "/exports", id, &exp_type, CB(cb), ud, err);
}

int steno_api_export_download(struct steno_http *http, const struct steno_export *exp,
			      const char *dir, const char *name, int overwrite,
			      steno_progress_fn progress, steno_download_done_fn cb, void *ud,
			      struct steno_error *err)
{
	if (!exp || !exp->download_link)
		return steno_error_invalid(err, "download_link", "the export is not ready to download");
	struct steno_download_request req = {
		.url = exp->download_link, .dir = dir, .name = name, .overwrite = overwrite,
		.owner = ud, .progress = progress, .done = cb, .ud = ud,
	};
	return steno_http_download(http, &req, NULL, err);
}

int steno_api_translation_task_create(struct steno_http *http,
				      const struct steno_translation_task_req *req,
				      steno_api_task_cb cb, void *ud, struct steno_error *err)
{
	char *body = NULL;
	if (steno_build_translation_task(req, &body, err) != 0)
		return -1;
	return post_json(http, "/task/transcription_translation", body, &task_type, CB(cb), ud, err);
}

int steno_api_translation_task_retrieve(struct steno_http *http, const char *id,
					steno_api_task_cb cb, void *ud, struct steno_error *err)
{
	return get_by_id(http, "/task/transcription_translation", id, &task_type, CB(cb), ud, err);
}

int steno_api_order_create(struct steno_http *http, const struct steno_order_create_req *req,
			   steno_api_order_cb cb, void *ud, struct steno_error *err)
{
	char *body = NULL;
	if (steno_build_order_create(req, &body, err) != 0)
		return -1;
	return post_json(http, "/orders", body, &order_type, CB(cb), ud, err);
}

int steno_api_order_translation_create(struct steno_http *http,
				       const struct steno_translation_order_req *req,
				       steno_api_order_cb cb, void *ud, struct steno_error *err)
{
	char *body = NULL;
	if (steno_build_translation_order(req, &body, err) != 0)
		return -1;
	return post_json(http, "/orders/translation", body, &order_type, CB(cb), ud, err);
}

int steno_api_order_retrieve(struct steno_http *http, const char *id, steno_api_order_cb cb,
			     void *ud, struct steno_error *err)
{
	return get_by_id(http, "/orders", id, &order_type, CB(cb), ud, err);
}

int steno_api_order_confirm(struct steno_http *http, const char *id, steno_api_order_cb cb,
			    void *ud, struct steno_error *err)
{
	if (require(id, "id", err) != 0)
		return -1;
	char *url = url_for(http, "/orders", id, "/confirm");
	char *reread = url_for(http, "/orders", id, NULL);
	int rc = reread ? ep_submit(http, "POST", url, NULL, reread, &order_type, CB(cb), ud, err)
			: steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	free(url);
	free(reread);
	return rc;
}

static int list_for_org(struct steno_http *http, const char *path, const char *org,
			const struct ep_type *type, ep_any_cb cb, void *ud, struct steno_error *err)
{
	if (require(org, "organization_id", err) != 0)
		return -1;
	struct steno_url_builder b;
	steno_url_builder_init(&b, steno_http_base_url(http), path);
	steno_url_builder_param(&b, "organization_id", org);
	char *url = steno_url_builder_take(&b);
	int rc = ep_submit(http, "GET", url, NULL, NULL, type, cb, ud, err);
	free(url);
	return rc;
}

int steno_api_glossaries_list(struct steno_http *http, const char *organization_id,
			      steno_api_glossaries_cb cb, void *ud, struct steno_error *err)
{
	return list_for_org(http, "/glossaries", organization_id, &gloss_type, CB(cb), ud, err);
}

int steno_api_organizations_list(struct steno_http *http, steno_api_organizations_cb cb,
				 void *ud, struct steno_error *err)
{
	char *url = url_for(http, "/organizations", NULL, NULL);
	if (!url)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	int rc = ep_submit(http, "GET", url, NULL, NULL, &orgs_type, CB(cb), ud, err);
	free(url);
	return rc;
}

int steno_api_style_guides_list(struct steno_http *http, const char *organization_id,
				steno_api_style_guides_cb cb, void *ud, struct steno_error *err)
{
	return list_for_org(http, "/style_guides", organization_id, &style_type, CB(cb), ud, err);
}
