/* The state file: JSON in and out, and saves that merge what another steno process saved
 * meanwhile, under an exclusive lock on PATH.lock, then rename atomically. */
#include "config.h"
#include "core/state.h"

#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/paths.h"
#include "core/state_internal.h"

#define STATE_FILE_MAX (4 * 1024 * 1024)

static const char *const watch_kinds[] = { "order", "export", "task" };

int64_t state_jint64(json_object *o, const char *key)
{
	json_object *t;
	return json_object_object_get_ex(o, key, &t) && json_object_is_type(t, json_type_int)
		? json_object_get_int64(t) : 0;
}


/* Whether o[key] is the boolean true (json-c would make any non-empty string true). */
bool state_jtrue(json_object *o, const char *key)
{
	json_object *t;
	return json_object_object_get_ex(o, key, &t) && json_object_is_type(t, json_type_boolean) &&
	       json_object_get_boolean(t);
}

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
		const char *kind = json_object_is_type(o, json_type_object) ? state_jstr(o, "kind") : NULL;
		/* a job end's keys are optional (older files have none); a malformed one is no end */
		struct state_job_end end = { state_jstr(o, "job_end"), state_jtrue(o, "job_end_failed"),
			state_jstr(o, "job_end_state"), state_jint64(o, "job_end_ms") };
		struct watch_in in = { .origin = state_jstr(o, "origin"), .org = state_jstr(o, "org"),
				       .id = state_jstr(o, "id"), .added_ms = state_jint64(o, "added_ms"),
				       .final_ms = state_jint64(o, "final_ms"), .kind = STATE_WATCH_TASK + 1,
				       .end = end.ended_ms > 0 ? &end : NULL,
				       .download_dir = state_jstr(o, "download_dir"),
				       .download_name = state_jstr(o, "download_name"),
				       .download_overwrite = state_jtrue(o, "download_overwrite") };
		for (int k = 0; kind && k <= STATE_WATCH_TASK; k++)
			if (!strcmp(kind, watch_kinds[k]))
				in.kind = (enum state_watch_kind)k;
		struct steno_error e;
		steno_error_clear(&e);
		if (!kind || state_watch_put(st, &in, &e) < 0)
			return e.kind == STENO_ERR_NOMEM ? -1 : 1;
	}
	return 0;
}

/* A new array added to root under key, or NULL (no memory). */
static json_object *array_in(json_object *root, const char *key)
{
	json_object *arr = json_object_new_array();
	if (!arr || json_object_object_add(root, key, arr)) {
		json_object_put(arr);
		return NULL;
	}
	return arr;
}

/* A new object appended to arr, or NULL (no memory). */
static json_object *object_in(json_object *arr)
{
	json_object *o = json_object_new_object();
	if (!o || json_object_array_add(arr, o)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int watched_to_json(const struct steno_state *st, json_object *root)
{
	json_object *arr = array_in(root, "watched");
	if (!arr)
		return -1;
	for (size_t i = 0; i < st->n_watched; i++) {
		const struct state_watch *w = &st->watched[i];
		json_object *o = object_in(arr);
		if (!o)
			return -1;
		json_object_object_add(o, "origin", json_object_new_string(w->origin));
		json_object_object_add(o, "org", json_object_new_string(w->org_id));
		json_object_object_add(o, "kind", json_object_new_string(watch_kinds[w->kind]));
		json_object_object_add(o, "id", json_object_new_string(w->id));
		json_object_object_add(o, "added_ms", json_object_new_int64(w->added_ms));
		if (w->final_ms)
			json_object_object_add(o, "final_ms", json_object_new_int64(w->final_ms));
		if (w->download_dir) {
			json_object_object_add(o, "download_dir", json_object_new_string(w->download_dir));
			if (w->download_name)
				json_object_object_add(o, "download_name",
						       json_object_new_string(w->download_name));
			if (w->download_overwrite)
				json_object_object_add(o, "download_overwrite", json_object_new_boolean(1));
		}
		if (!w->job_end_ms)
			continue;
		json_object_object_add(o, "job_end_ms", json_object_new_int64(w->job_end_ms));
		if (w->job_end)
			json_object_object_add(o, "job_end", json_object_new_string(w->job_end));
		if (w->job_end_failed)
			json_object_object_add(o, "job_end_failed", json_object_new_boolean(1));
		if (w->job_end_state)
			json_object_object_add(o, "job_end_state",
					       json_object_new_string(w->job_end_state));
	}
	return 0;
}

/* The optional "choices" array (remembered dialog choices and recent languages; older files
 * have none). 0, 1 when malformed, -1 no memory. */
static int choices_from_json(struct steno_state *st, json_object *root)
{
	json_object *arr;
	if (!json_object_object_get_ex(root, "choices", &arr))
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return 1;
	for (size_t i = 0, n = json_object_array_length(arr); i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(o, json_type_object))
			return 1;
		struct choice_in c = { state_jstr(o, "origin"), state_jstr(o, "org"), state_jstr(o, "dialog"),
			state_jstr(o, "field"), state_jstr(o, "value"), state_jint64(o, "used_ms") };
		struct steno_error e;
		steno_error_clear(&e);
		if (state_choice_put(st, &c, &e) < 0)
			return e.kind == STENO_ERR_NOMEM ? -1 : 1;
	}
	return 0;
}

static int choices_to_json(const struct steno_state *st, json_object *root)
{
	json_object *arr = array_in(root, "choices");
	if (!arr)
		return -1;
	for (size_t i = 0; i < st->n_choices; i++) {
		const struct state_choice *c = &st->choices[i];
		json_object *o = object_in(arr);
		if (!o)
			return -1;
		json_object_object_add(o, "origin", json_object_new_string(c->origin));
		json_object_object_add(o, "org", json_object_new_string(c->org_id));
		json_object_object_add(o, "dialog", json_object_new_string(c->dialog));
		json_object_object_add(o, "field", json_object_new_string(c->field));
		json_object_object_add(o, "value", json_object_new_string(c->value));
		json_object_object_add(o, "used_ms", json_object_new_int64(c->used_ms));
	}
	return 0;
}

const char *state_jstr(json_object *o, const char *key)
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
		/* no "origin": a folder of the previous format (state_set_origin adopts it) */
		const char *origin = state_jstr(o, "origin");
		if (state_folder_put(st, origin ? origin : "", state_jstr(o, "org"), state_jstr(o, "id"),
				     state_jstr(o, "path"), at, &e) < 0)
			return e.kind == STENO_ERR_NOMEM ? -1 : 1;
	}
	int rc = watched_from_json(st, root);
	if (!rc)
		rc = state_claims_from_json(st, root);
	return rc ? rc : choices_from_json(st, root);
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
		if (f->origin[0])
			json_object_object_add(o, "origin", json_object_new_string(f->origin));
		json_object_object_add(o, "org", json_object_new_string(f->org_id));
		if (f->folder_id)
			json_object_object_add(o, "id", json_object_new_string(f->folder_id));
		if (f->path)
			json_object_object_add(o, "path", json_object_new_string(f->path));
		json_object_object_add(o, "learned_ms", json_object_new_int64(f->learned_ms));
	}
	if (watched_to_json(st, root) < 0 || choices_to_json(st, root) < 0 ||
	    state_claims_to_json(st, root) < 0) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

static int write_file(const struct steno_state *st, const char *path, struct steno_error *err)
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
	return rc;
}

/* PATH.lock, opened (created 0600, its directory 0700) and locked exclusively; -1 + err. */
static int lock_file(const char *path, struct steno_error *err)
{
	char lock[4200], dir[4200];
	snprintf(lock, sizeof lock, "%s.lock", path);
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (paths_mkdir_private(dir, err) != 0)
			return -1;
	}
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return steno_error_set(err, STENO_ERR_IO, "cannot open %s: %s", lock, strerror(errno));
	while (flock(fd, LOCK_EX) != 0) {
		if (errno == EINTR)
			continue;
		steno_error_set(err, STENO_ERR_IO, "cannot lock %s: %s", lock, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The file locked (PATH.lock) and read as it is now into disk: the lock's fd, or -1 with
 * err (then disk is empty and nothing is locked). */
static int lock_and_load(const char *path, struct steno_state *disk, struct steno_error *err)
{
	state_init(disk);
	int fd = lock_file(path, err);
	if (fd < 0)
		return -1;
	struct steno_error lerr;
	steno_error_clear(&lerr);
	if (state_load(disk, path, &lerr) < 0) {
		if (err)
			*err = lerr;
		close(fd);
		return -1;
	}
	return fd;
}

int state_save(struct steno_state *st, const char *path, struct steno_error *err)
{
	/* read what is there now (another process may have saved since we loaded), add ours,
	 * write it back, all under the lock: nothing either wrote is lost */
	struct steno_state disk;
	int fd = lock_and_load(path, &disk, err);
	if (fd < 0)
		return -1;
	int rc = state_merge_into(&disk, st, err);
	if (rc == 0)
		rc = write_file(&disk, path, err);
	close(fd);   /* unlocks */
	if (rc == 0) {
		/* the merged state is ours now; the scope (origin) stays */
		char *origin = st->origin;
		st->origin = NULL;
		state_free(st);
		*st = disk;
		st->origin = origin;
		st->dirty = false;
	} else {
		state_free(&disk);
	}
	return rc;
}

int state_file_update(const char *path, state_update_fn fn, void *ud, struct steno_error *err)
{
	struct steno_state disk;
	int fd = lock_and_load(path, &disk, err);
	if (fd < 0)
		return -1;
	int rc = fn(&disk, ud);
	if (rc >= 0 && disk.dirty && write_file(&disk, path, err) != 0)
		rc = -1;
	close(fd);   /* unlocks */
	state_free(&disk);
	return rc;
}
