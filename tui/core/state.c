#include "config.h"
#include "core/state.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/state_internal.h"

#define STATE_FOLDERS_MAX 10000

void state_init(struct steno_state *st)
{
	memset(st, 0, sizeof(*st));
}

static void folder_free(struct state_folder *f)
{
	free(f->origin);
	free(f->org_id);
	free(f->folder_id);
	free(f->path);
}

static void watch_free(struct state_watch *w)
{
	free(w->origin);
	free(w->org_id);
	free(w->id);
	free(w->job_end);
	free(w->job_end_state);
	free(w->download_dir);
	free(w->download_name);
}

void state_free(struct steno_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n_folders; i++)
		folder_free(&st->folders[i]);
	free(st->folders);
	for (size_t i = 0; i < st->n_watched; i++)
		watch_free(&st->watched[i]);
	free(st->watched);
	for (size_t i = 0; i < st->n_forgotten; i++)
		watch_free(&st->forgotten[i]);
	free(st->forgotten);
	state_choices_free(st);
	state_claims_free(st);
	free(st->origin);
	memset(st, 0, sizeof(*st));
}

/* The server the folders are read and learned for ("" before state_set_origin). */
static const char *scope(const struct steno_state *st)
{
	return st->origin ? st->origin : "";
}

void state_set_origin(struct steno_state *st, const char *origin, const char *org_id)
{
	char *o = strdup(origin ? origin : "");
	if (!o)
		return;   /* no memory: the previous scope stays */
	free(st->origin);
	st->origin = o;
	if (!o[0] || !org_id)
		return;
	/* the previous format's folders (no server) go to the first server that opens their
	 * organization, and only to it */
	for (size_t i = 0; i < st->n_folders; i++) {
		struct state_folder *f = &st->folders[i];
		char *copy;
		if (f->origin[0] || strcmp(f->org_id, org_id) != 0 || !(copy = strdup(o)))
			continue;
		free(f->origin);
		f->origin = copy;
		st->dirty = true;
	}
}

static bool same_folder(const struct state_folder *f, const char *origin, const char *org,
			const char *id, const char *path)
{
	if (strcmp(f->org_id, org) != 0 || strcmp(f->origin, origin) != 0)
		return false;
	if (id && f->folder_id)
		return strcmp(f->folder_id, id) == 0;
	return path && f->path && strcmp(f->path, path) == 0;
}

static bool field_ok(const char *s, bool path)
{
	if (!s)
		return true;
	size_t n = strlen(s);
	if (n == 0 || n > 512)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return !path || s[0] == '/';
}

static int dup_or_keep(char **dst, const char *src)
{
	if (!src || *dst)
		return 0;
	*dst = strdup(src);
	return *dst ? 1 : -1;
}

int state_folder_put(struct steno_state *st, const char *origin, const char *org_id,
		     const char *folder_id, const char *path, int64_t learned_ms,
		     struct steno_error *err)
{
	if (!origin || (origin[0] && !field_ok(origin, false)) || !org_id || !org_id[0] ||
	    (!folder_id && !path) || !field_ok(org_id, false) || !field_ok(folder_id, false) ||
	    !field_ok(path, true))
		return steno_error_invalid(err, "folder", "not a folder: organization and id or path needed");
	for (size_t i = 0; i < st->n_folders; i++) {
		struct state_folder *f = &st->folders[i];
		if (!same_folder(f, origin, org_id, folder_id, path))
			continue;
		int a = dup_or_keep(&f->folder_id, folder_id), b = dup_or_keep(&f->path, path);
		if (a < 0 || b < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		if (a || b)
			st->dirty = true;
		return a || b;
	}
	if (st->n_folders >= STATE_FOLDERS_MAX)
		return 0;
	struct state_folder *fs = realloc(st->folders, (st->n_folders + 1) * sizeof(*fs));
	if (!fs)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	st->folders = fs;
	struct state_folder f = { strdup(origin), strdup(org_id), folder_id ? strdup(folder_id) : NULL,
				  path ? strdup(path) : NULL, learned_ms };
	if (!f.origin || !f.org_id || (folder_id && !f.folder_id) || (path && !f.path)) {
		folder_free(&f);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	fs[st->n_folders++] = f;
	st->dirty = true;
	return 1;
}

int state_folder_learn(struct steno_state *st, const char *org_id, const char *folder_id,
		       const char *path, int64_t now_ms, struct steno_error *err)
{
	return state_folder_put(st, scope(st), org_id, folder_id, path, now_ms, err);
}

long state_folders_of(const struct steno_state *st, const char *org_id, size_t **out)
{
	*out = malloc((st->n_folders ? st->n_folders : 1) * sizeof(**out));
	if (!*out)
		return -1;
	long n = 0;
	for (size_t i = 0; i < st->n_folders; i++)
		if (org_id && strcmp(st->folders[i].org_id, org_id) == 0 &&
		    strcmp(st->folders[i].origin, scope(st)) == 0)
			(*out)[n++] = i;
	return n;
}


/* ---- watched orders, exports and translation tasks ---- */

char *state_origin(const char *base_url, char *buf, size_t size)
{
	const char *p = base_url ? strstr(base_url, "://") : NULL;
	if (!p || !size)
		return NULL;
	size_t scheme = (size_t)(p - base_url);
	if (!((scheme == 4 && strncasecmp(base_url, "http", 4) == 0) ||
	      (scheme == 5 && strncasecmp(base_url, "https", 5) == 0)))
		return NULL;
	const char *host = p + 3;
	size_t n = strcspn(host, "/?#");
	const char *at = memchr(host, '@', n);
	if (at) {   /* user info never goes into the file */
		n -= (size_t)(at + 1 - host);
		host = at + 1;
	}
	if (n == 0 || scheme + 3 + n + 1 > size)
		return NULL;
	size_t len = 0;
	for (size_t i = 0; i < scheme; i++)
		buf[len++] = (char)tolower((unsigned char)base_url[i]);
	memcpy(buf + len, "://", 3);
	len += 3;
	for (size_t i = 0; i < n; i++)
		buf[len++] = (char)tolower((unsigned char)host[i]);
	buf[len] = '\0';
	return buf;
}

static void watch_drop(struct steno_state *st, size_t i)
{
	watch_free(&st->watched[i]);
	memmove(&st->watched[i], &st->watched[i + 1], (st->n_watched - i - 1) * sizeof(*st->watched));
	st->n_watched--;
	st->dirty = true;
}

static long watch_find(const struct steno_state *st, const char *origin, const char *org,
		       enum state_watch_kind kind, const char *id)
{
	for (size_t i = 0; i < st->n_watched; i++) {
		const struct state_watch *w = &st->watched[i];
		if (w->kind == kind && !strcmp(w->id, id) && !strcmp(w->org_id, org) &&
		    !strcmp(w->origin, origin))
			return (long)i;
	}
	return -1;
}

void state_watch_prune(struct steno_state *st, int64_t now_ms)
{
	for (size_t i = st->n_watched; i-- > 0;) {
		const struct state_watch *w = &st->watched[i];
		if (w->final_ms && now_ms - w->final_ms > STATE_WATCH_KEEP_MS)
			watch_drop(st, i);
	}
}

/* Makes room for one more: the oldest final item goes, else the oldest. */
static void watch_make_room(struct steno_state *st)
{
	if (st->n_watched < STATE_WATCHED_MAX)
		return;
	for (size_t i = 0; i < st->n_watched; i++)
		if (st->watched[i].final_ms) {
			watch_drop(st, i);
			return;
		}
	watch_drop(st, 0);
}

/* A job end's text as stored: control characters (a server's message may hold some) made
 * spaces, cut below STATE_JOB_END_MAX bytes without splitting a UTF-8 character. *out is
 * NULL for no text. 0, or -1 on no memory. */
static int end_text_copy(const char *text, char **out)
{
	*out = NULL;
	if (!text || !text[0])
		return 0;
	size_t n = strlen(text);
	if (n >= STATE_JOB_END_MAX) {
		n = STATE_JOB_END_MAX - 1;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;   /* text[n], the first byte cut, continues a character: cut it whole */
	}
	if (!(*out = strndup(text, n)))
		return -1;
	for (unsigned char *p = (unsigned char *)*out; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return 0;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Replaces w's job end by end's (a state that is not a plain word is dropped: unknown).
 * 1 changed, 0 the same end (its first time kept), -1 no memory (w unchanged). */
static int watch_set_end(struct state_watch *w, const struct state_job_end *end)
{
	char *text, *state = NULL;
	if (end_text_copy(end->text, &text) < 0)
		return -1;
	if (end->state && field_ok(end->state, false) && !(state = strdup(end->state))) {
		free(text);
		return -1;
	}
	bool failed = text && end->failed;
	if (w->job_end_ms && str_same(text, w->job_end) && failed == w->job_end_failed &&
	    str_same(state, w->job_end_state)) {
		free(text);
		free(state);
		return 0;
	}
	free(w->job_end);
	free(w->job_end_state);
	w->job_end = text;
	w->job_end_failed = failed;
	w->job_end_state = state;
	w->job_end_ms = end->ended_ms > 0 ? end->ended_ms : 1;
	return 1;
}

/* Sets (dir non-NULL) or clears the download that waits; -1 on no memory (left as it was). */
static int watch_set_download(struct state_watch *w, const char *dir, const char *name,
			      bool overwrite)
{
	char *d = dir ? strdup(dir) : NULL, *n = dir && name ? strdup(name) : NULL;
	if ((dir && !d) || (dir && name && !n)) {
		free(d);
		free(n);
		return -1;
	}
	free(w->download_dir);
	free(w->download_name);
	w->download_dir = d;
	w->download_name = n;
	w->download_overwrite = dir && overwrite;
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int watch_append(struct steno_state *st, const struct watch_in *in)
{
	struct state_watch w = { .kind = in->kind, .added_ms = in->added_ms,
				 .final_ms = in->final_ms };
	w.origin = strdup(in->origin);
	w.org_id = strdup(in->org);
	w.id = strdup(in->id);
	bool ok = w.origin && w.org_id && w.id && (!in->end || watch_set_end(&w, in->end) >= 0) &&
		watch_set_download(&w, in->download_dir, in->download_name, in->download_overwrite) == 0;
	struct state_watch *ws = ok ? realloc(st->watched, (st->n_watched + 1) * sizeof(*ws)) : NULL;
	if (!ws) {
		watch_free(&w);
		return -1;
	}
	st->watched = ws;
	ws[st->n_watched++] = w;
	st->dirty = true;
	return 1;
}

int state_watch_put(struct steno_state *st, const struct watch_in *in, struct steno_error *err)
{
	if (!in->origin || !field_ok(in->origin, false) || !in->org ||
	    (*in->org && !field_ok(in->org, false)) || !in->id || !field_ok(in->id, false) ||
	    (unsigned)in->kind > STATE_WATCH_TASK)
		return steno_error_set(err, STENO_ERR_INVALID, "invalid watched item");
	if (watch_find(st, in->origin, in->org, in->kind, in->id) >= 0)
		return 0;
	watch_make_room(st);
	if (watch_append(st, in) < 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return 1;
}

int state_watch_add(struct steno_state *st, const char *origin, const char *org_id,
		    enum state_watch_kind kind, const char *id, int64_t now_ms,
		    struct steno_error *err)
{
	state_watch_prune(st, now_ms);
	struct watch_in in = { .origin = origin, .org = org_id ? org_id : "", .id = id,
			       .kind = kind, .added_ms = now_ms };
	return state_watch_put(st, &in, err);
}

void state_watch_forget(struct steno_state *st, const char *origin, const char *org_id,
			enum state_watch_kind kind, const char *id)
{
	if (!origin || !id)
		return;
	long i = watch_find(st, origin, org_id ? org_id : "", kind, id);
	if (i < 0)
		return;
	struct state_watch *f = realloc(st->forgotten, (st->n_forgotten + 1) * sizeof(*f));
	if (f) {   /* no memory: dropped here, maybe back from the file after a save */
		st->forgotten = f;
		f[st->n_forgotten++] = st->watched[i];
		memmove(&st->watched[i], &st->watched[i + 1],
			(st->n_watched - (size_t)i - 1) * sizeof(*st->watched));
		st->n_watched--;
		st->dirty = true;
	} else {
		watch_drop(st, (size_t)i);
	}
}

void state_watch_download(struct steno_state *st, const char *origin, const char *org_id,
			  enum state_watch_kind kind, const char *id, const char *dir,
			  const char *name, bool overwrite)
{
	if (!origin || !id)
		return;
	long i = watch_find(st, origin, org_id ? org_id : "", kind, id);
	if (i < 0)
		return;
	struct state_watch *w = &st->watched[i];
	if (same_str(w->download_dir, dir) && same_str(w->download_name, dir ? name : NULL) &&
	    w->download_overwrite == (dir && overwrite))
		return;
	if (watch_set_download(w, dir, name, overwrite) == 0)
		st->dirty = true;
}

const struct state_watch *state_watch_get(const struct steno_state *st, const char *origin,
					  const char *org_id, enum state_watch_kind kind,
					  const char *id)
{
	long i = origin && id ? watch_find(st, origin, org_id ? org_id : "", kind, id) : -1;
	return i < 0 ? NULL : &st->watched[i];
}

void state_watch_final(struct steno_state *st, const char *origin, const char *org_id,
		       enum state_watch_kind kind, const char *id, int64_t now_ms)
{
	if (!origin || !id)
		return;
	long i = watch_find(st, origin, org_id ? org_id : "", kind, id);
	if (i < 0 || st->watched[i].final_ms)
		return;
	st->watched[i].final_ms = now_ms > 0 ? now_ms : 1;
	st->dirty = true;
}

void state_watch_job_end(struct steno_state *st, const char *origin, const char *org_id,
			 enum state_watch_kind kind, const char *id,
			 const struct state_job_end *end)
{
	if (!origin || !id || !end)
		return;
	long i = watch_find(st, origin, org_id ? org_id : "", kind, id);
	if (i >= 0 && watch_set_end(&st->watched[i], end) > 0)
		st->dirty = true;
}

long state_watched_of(const struct steno_state *st, const char *origin, const char *org_id,
		      size_t **out)
{
	*out = malloc((st->n_watched ? st->n_watched : 1) * sizeof(**out));
	if (!*out)
		return -1;
	long n = 0;
	for (size_t i = 0; i < st->n_watched; i++) {
		const struct state_watch *w = &st->watched[i];
		if (origin && !strcmp(w->origin, origin) && !strcmp(w->org_id, org_id ? org_id : ""))
			(*out)[n++] = i;
	}
	return n;
}


/* ---- merging what another process saved ---- */

static int merge_watch(struct steno_state *dst, const struct state_watch *w)
{
	struct state_job_end end = { w->job_end, w->job_end_failed, w->job_end_state,
				     w->job_end_ms };
	long i = watch_find(dst, w->origin, w->org_id, w->kind, w->id);
	if (i < 0) {
		struct watch_in in = { .origin = w->origin, .org = w->org_id, .id = w->id,
				       .kind = w->kind, .added_ms = w->added_ms, .final_ms = w->final_ms,
				       .end = w->job_end_ms ? &end : NULL, .download_dir = w->download_dir,
				       .download_name = w->download_name,
				       .download_overwrite = w->download_overwrite };
		return watch_append(dst, &in) < 0 ? -1 : 0;
	}
	struct state_watch *d = &dst->watched[i];
	if (!same_str(d->download_dir, w->download_dir) ||
	    !same_str(d->download_name, w->download_name))
		if (watch_set_download(d, w->download_dir, w->download_name, w->download_overwrite) < 0)
			return -1;
	if (w->added_ms < d->added_ms)
		d->added_ms = w->added_ms;
	if (w->final_ms && (!d->final_ms || w->final_ms < d->final_ms))
		d->final_ms = w->final_ms;   /* the first time it was seen final */
	/* the last job that ended on it, whichever process ran it */
	return w->job_end_ms > d->job_end_ms && watch_set_end(d, &end) < 0 ? -1 : 0;
}

/* Whether a folder of the previous format (no origin) was adopted by a server since. */
static bool adopted(const struct steno_state *st, const struct state_folder *legacy)
{
	for (size_t i = 0; i < st->n_folders; i++) {
		const struct state_folder *f = &st->folders[i];
		if (f->origin[0] && same_folder(f, f->origin, legacy->org_id, legacy->folder_id,
						legacy->path))
			return true;
	}
	return false;
}

int state_merge_into(struct steno_state *dst, const struct steno_state *src, struct steno_error *err)
{
	for (size_t i = 0; i < src->n_folders; i++) {
		const struct state_folder *f = &src->folders[i];
		if (state_folder_put(dst, f->origin, f->org_id, f->folder_id, f->path, f->learned_ms,
				     err) < 0 && err && err->kind == STENO_ERR_NOMEM)
			return -1;
	}
	for (size_t i = 0; i < src->n_watched; i++)
		if (merge_watch(dst, &src->watched[i]) < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < src->n_forgotten; i++) {
		const struct state_watch *w = &src->forgotten[i];
		long k = watch_find(dst, w->origin, w->org_id, w->kind, w->id);
		if (k >= 0)
			watch_drop(dst, (size_t)k);
	}
	while (dst->n_watched > STATE_WATCHED_MAX)
		watch_make_room(dst);
	if (state_choices_merge(dst, src, err) < 0)
		return -1;
	if (state_claims_merge(dst, src, (int64_t)time(NULL) * 1000) < 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = dst->n_folders; i-- > 0;) {
		if (dst->folders[i].origin[0] || !adopted(dst, &dst->folders[i]))
			continue;
		folder_free(&dst->folders[i]);
		memmove(&dst->folders[i], &dst->folders[i + 1],
			(dst->n_folders - i - 1) * sizeof(*dst->folders));
		dst->n_folders--;
	}
	return 0;
}
