#include "config.h"
#include "core/state.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/paths.h"

#define STATE_FILE_MAX (4 * 1024 * 1024)
#define STATE_FOLDERS_MAX 10000

void state_init(struct steno_state *st)
{
	memset(st, 0, sizeof(*st));
}

static void folder_free(struct state_folder *f)
{
	free(f->org_id);
	free(f->folder_id);
	free(f->path);
}

void state_free(struct steno_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n_folders; i++)
		folder_free(&st->folders[i]);
	free(st->folders);
	for (size_t i = 0; i < st->n_watched; i++) {
		free(st->watched[i].origin);
		free(st->watched[i].org_id);
		free(st->watched[i].id);
	}
	free(st->watched);
	memset(st, 0, sizeof(*st));
}

static bool same_folder(const struct state_folder *f, const char *org, const char *id,
			const char *path)
{
	if (strcmp(f->org_id, org) != 0)
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

int state_folder_learn(struct steno_state *st, const char *org_id, const char *folder_id,
		       const char *path, int64_t now_ms, struct steno_error *err)
{
	if (!org_id || !org_id[0] || (!folder_id && !path) || !field_ok(org_id, false) ||
	    !field_ok(folder_id, false) || !field_ok(path, true))
		return steno_error_invalid(err, "folder", "not a folder: organization and id or path needed");
	for (size_t i = 0; i < st->n_folders; i++) {
		struct state_folder *f = &st->folders[i];
		if (!same_folder(f, org_id, folder_id, path))
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
	struct state_folder f = { strdup(org_id), folder_id ? strdup(folder_id) : NULL,
				  path ? strdup(path) : NULL, now_ms };
	if (!f.org_id || (folder_id && !f.folder_id) || (path && !f.path)) {
		folder_free(&f);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	fs[st->n_folders++] = f;
	st->dirty = true;
	return 1;
}

long state_folders_of(const struct steno_state *st, const char *org_id, size_t **out)
{
	*out = malloc((st->n_folders ? st->n_folders : 1) * sizeof(**out));
	if (!*out)
		return -1;
	long n = 0;
	for (size_t i = 0; i < st->n_folders; i++)
		if (org_id && strcmp(st->folders[i].org_id, org_id) == 0)
			(*out)[n++] = i;
	return n;
}


/* ---- watched orders, exports and translation tasks ---- */

static const char *const watch_kinds[] = { "order", "export", "task" };

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

static void watch_free(struct state_watch *w)
{
	free(w->origin);
	free(w->org_id);
	free(w->id);
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

/* One item's fields, all borrowed: what watch_put copies. */
struct watch_in {
	const char *origin, *org, *id;
	enum state_watch_kind kind;
	int64_t added_ms, final_ms;
};

static int watch_append(struct steno_state *st, const struct watch_in *in)
{
	struct state_watch w = { .kind = in->kind, .added_ms = in->added_ms,
				 .final_ms = in->final_ms };
	w.origin = strdup(in->origin);
	w.org_id = strdup(in->org);
	w.id = strdup(in->id);
	struct state_watch *ws = w.origin && w.org_id && w.id
		? realloc(st->watched, (st->n_watched + 1) * sizeof(*ws)) : NULL;
	if (!ws) {
		watch_free(&w);
		return -1;
	}
	st->watched = ws;
	ws[st->n_watched++] = w;
	st->dirty = true;
	return 1;
}

static int watch_put(struct steno_state *st, const struct watch_in *in, struct steno_error *err)
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
	return watch_put(st, &in, err);
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

static int64_t jint64(json_object *o, const char *key)
{
	json_object *t;
	return json_object_object_get_ex(o, key, &t) && json_object_is_type(t, json_type_int)
		? json_object_get_int64(t) : 0;
}

static const char *jstr(json_object *o, const char *key);

/* The optional "watched" array (older files have none). 0, 1 when malformed, -1 no memory. */
static int watched_from_json(struct steno_state *st, json_object *root)
{
	json_object *arr;
	if (!json_object_object_get_ex(root, "watched", &arr))
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return 1;
	size_t n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		const char *kind = json_object_is_type(o, json_type_object) ? jstr(o, "kind") : NULL;
		struct watch_in in = { .origin = jstr(o, "origin"), .org = jstr(o, "org"),
				       .id = jstr(o, "id"), .added_ms = jint64(o, "added_ms"),
				       .final_ms = jint64(o, "final_ms"), .kind = STATE_WATCH_TASK + 1 };
		for (int k = 0; kind && k <= STATE_WATCH_TASK; k++)
			if (!strcmp(kind, watch_kinds[k]))
				in.kind = (enum state_watch_kind)k;
		struct steno_error e;
		steno_error_clear(&e);
		if (!kind || watch_put(st, &in, &e) < 0)
			return e.kind == STENO_ERR_NOMEM ? -1 : 1;
	}
	return 0;
}

static int watched_to_json(const struct steno_state *st, json_object *root)
{
	json_object *arr = json_object_new_array();
	if (!arr || json_object_object_add(root, "watched", arr)) {
		json_object_put(arr);
		return -1;
	}
	for (size_t i = 0; i < st->n_watched; i++) {
		const struct state_watch *w = &st->watched[i];
		json_object *o = json_object_new_object();
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			return -1;
		}
		json_object_object_add(o, "origin", json_object_new_string(w->origin));
		json_object_object_add(o, "org", json_object_new_string(w->org_id));
		json_object_object_add(o, "kind", json_object_new_string(watch_kinds[w->kind]));
		json_object_object_add(o, "id", json_object_new_string(w->id));
		json_object_object_add(o, "added_ms", json_object_new_int64(w->added_ms));
		if (w->final_ms)
			json_object_object_add(o, "final_ms", json_object_new_int64(w->final_ms));
	}
	return 0;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Returns 0, 1 when the document is not a state file, -1 on no memory. */
static int state_from_json(struct steno_state *st, json_object *root)
{
	json_object *arr, *ver;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "version", &ver) ||
	    !json_object_is_type(ver, json_type_int) || json_object_get_int(ver) != 1 ||
	    !json_object_object_get_ex(root, "folders", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 1;
	size_t n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *t;
		if (!json_object_is_type(o, json_type_object))
			return 1;
		int64_t at = json_object_object_get_ex(o, "learned_ms", &t) &&
					     json_object_is_type(t, json_type_int)
				     ? json_object_get_int64(t)
				     : 0;
		struct steno_error e;
		steno_error_clear(&e);
		if (state_folder_learn(st, jstr(o, "org"), jstr(o, "id"), jstr(o, "path"), at, &e) < 0)
			return e.kind == STENO_ERR_NOMEM ? -1 : 1;
	}
	return watched_from_json(st, root);
}

static int quarantine(struct steno_state *st, const char *path, const char *why,
		      struct steno_error *err)
{
	state_free(st);
	char bad[4096];
	snprintf(bad, sizeof(bad), "%s.bad", path);
	if (rename(path, bad) != 0) {
		steno_error_set(err, STENO_ERR_CONFIG, "%s is corrupt (%s) and could not be moved "
				"aside: %s; starting with no learned folders", path, why, strerror(errno));
		return 1;
	}
	steno_error_set(err, STENO_ERR_CONFIG,
			"%s is corrupt (%s); kept as %s, starting with no learned folders", path, why,
			bad);
	return 1;
}

int state_load(struct steno_state *st, const char *path, struct steno_error *err)
{
	state_init(st);
	char *text;
	size_t len;
	struct steno_error rerr;
	steno_error_clear(&rerr);
	if (paths_read_file(path, STATE_FILE_MAX, &text, &len, &rerr) != 0) {
		if (errno == ENOENT)
			return 0;
		if (rerr.kind == STENO_ERR_NOMEM) {
			if (err)
				*err = rerr;
			return -1;
		}
		return quarantine(st, path, "unreadable or too large", err);
	}
	json_tokener *tok = json_tokener_new();
	if (!tok) {
		free(text);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	bool complete = root && json_tokener_get_error(tok) == json_tokener_success &&
			json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	free(text);
	int rc = complete ? state_from_json(st, root) : 1;
	json_object_put(root);
	if (rc < 0) {
		state_free(st);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	if (rc > 0)
		return quarantine(st, path, complete ? "not a steno state file" : "not valid JSON",
				  err);
	st->dirty = false;
	return 0;
}

static json_object *state_to_json(const struct steno_state *st)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	if (!root || !arr || json_object_object_add(root, "version", json_object_new_int(1)) ||
	    json_object_object_add(root, "folders", arr)) {
		json_object_put(root);
		json_object_put(arr);
		return NULL;
	}
	for (size_t i = 0; i < st->n_folders; i++) {
		const struct state_folder *f = &st->folders[i];
		json_object *o = json_object_new_object();
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(root);
			return NULL;
		}
		json_object_object_add(o, "org", json_object_new_string(f->org_id));
		if (f->folder_id)
			json_object_object_add(o, "id", json_object_new_string(f->folder_id));
		if (f->path)
			json_object_object_add(o, "path", json_object_new_string(f->path));
		json_object_object_add(o, "learned_ms", json_object_new_int64(f->learned_ms));
	}
	if (watched_to_json(st, root) < 0) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

int state_save(struct steno_state *st, const char *path, struct steno_error *err)
{
	json_object *root = state_to_json(st);
	if (!root)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	size_t len;
	const char *text = json_object_to_json_string_length(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	int rc = text ? paths_save_atomic(path, text, len, 0600, err)
		      : steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	json_object_put(root);
	if (rc == 0)
		st->dirty = false;
	return rc;
}
