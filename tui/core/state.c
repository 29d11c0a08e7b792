#include "config.h"
#include "core/state.h"

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	return 0;
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
