/* The transcript preview: the content of a transcription, from the local store when it
 * holds it (no request at all), else read by core/transcript_fetch (its downloadUrl; a JSON
 * export only on the earlier API form, and never under --read-only) and kept in the local
 * store (core/content_db.h: the reader and search find it there; no file stays in the cache
 * directory), shown as speaker blocks with timestamps, wrapped to the width; search with /
 * n N. With `cache = off` (no store) it is read each time and kept nowhere. */
#include "config.h"

#include "ui/pane_preview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wctype.h>

#include "api/request.h"
#include "core/content_db.h"
#include "core/jobs_extra.h"
#include "core/localdb.h"
#include "core/paths.h"
#include "core/store.h"
#include "core/transcript_fetch.h"
#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/line_input.h"
#include "ui/listview.h"
#include "ui/style.h"
#include "ui/text.h"

/* One display line: a block header or a piece of its text. Points into the blocks. */
struct pv_line {
	size_t block;
	bool header;
	size_t from, to;     /* wide-char range of the block's text */
};

struct pv_block {
	char *header;        /* "[00:01:02] Speaker 1" */
	wchar_t *text;       /* sanitized */
};

/* Ownership: the pane's data; pv_close frees everything. */
struct pv {
	struct dialog_env env;
	char id[160], file[1200], dir[1100];
	struct pane *pane;
	struct transcript_fetch *fetch;   /* while the content is being read */
	char note[600];                   /* how it was read, when that is worth saying */
	bool loaded;
	char error[600];
	struct pv_block *blocks;
	size_t n_blocks;
	struct pv_line *lines;
	size_t n_lines;
	int wrap_cols;       /* the width lines were wrapped for */
	struct listview lv;  /* cursor = top line shown */
	bool searching;
	wchar_t query[80];
	size_t qlen;
	long match;          /* display line of the current match, -1 none */
	bool from_store;
	sqlite3 *db;         /* the local store's, NULL with cache = off */
};

static void pv_free_blocks(struct pv *v)
{
	for (size_t i = 0; i < v->n_blocks; i++) {
		free(v->blocks[i].header);
		free(v->blocks[i].text);
	}
	free(v->blocks);
	free(v->lines);
	v->blocks = NULL;
	v->lines = NULL;
	v->n_blocks = v->n_lines = 0;
	v->wrap_cols = 0;
}

static void fmt_ts(char *buf, size_t size, double s)
{
	long t = s >= 0 ? (long)s : 0;
	snprintf(buf, size, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static int pv_take(struct pv *v, const struct steno_transcript *tr, struct steno_error *err)
{
	v->blocks = tr->n_blocks ? calloc(tr->n_blocks, sizeof *v->blocks) : NULL;
	if (tr->n_blocks && !v->blocks)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < tr->n_blocks; i++) {
		const struct steno_speaker_block *b = &tr->blocks[i];
		char ts[32], head[300], *text = NULL;
		fmt_ts(ts, sizeof ts, b->start.v);
		snprintf(head, sizeof head, "[%s] %s", ts, b->speaker ? b->speaker : "Speaker");
		if (steno_transcript_block_text(b, &text, err) != 0)
			return -1;
		v->blocks[i].header = strdup(head);
		v->blocks[i].text = text_sanitize(text, 0);
		free(text);
		v->n_blocks = i + 1;
		if (!v->blocks[i].header || !v->blocks[i].text)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	return 0;
}

/* The stored content's paragraphs as blocks. */
static int pv_take_doc(struct pv *v, const struct content_doc *d)
{
	v->blocks = d->n ? calloc(d->n, sizeof *v->blocks) : NULL;
	if (d->n && !v->blocks)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		char ts[32], head[300];
		fmt_ts(ts, sizeof ts, d->paras[i].start);
		snprintf(head, sizeof head, "[%s] %s", ts,
			 d->paras[i].speaker ? d->paras[i].speaker : "Speaker");
		v->blocks[i].header = strdup(head);
		v->blocks[i].text = text_sanitize(d->paras[i].text ? d->paras[i].text : "", 0);
		v->n_blocks = i + 1;
		if (!v->blocks[i].header || !v->blocks[i].text)
			return -1;
	}
	return 0;
}

/* 1 shown from the local store, 0 it holds none, -1 error (said). */
static int pv_from_store(struct pv *v)
{
	struct content_doc d;
	struct steno_error err;
	int rc = v->db ? content_db_load(v->db, v->id, &d, &err) : 0;
	if (rc <= 0) {
		if (rc < 0)
			snprintf(v->error, sizeof v->error, "%s", err.message);
		return rc;
	}
	rc = pv_take_doc(v, &d);
	content_doc_free(&d);
	if (rc < 0) {
		pv_free_blocks(v);
		snprintf(v->error, sizeof v->error, "out of memory");
		return -1;
	}
	v->loaded = v->from_store = true;
	return 1;
}

/* Shows tr and keeps it in the local store for version (its updatedAt; "" unknown). */
static int pv_show(struct pv *v, const struct steno_transcript *tr, const char *version)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (v->db && content_db_put(v->db, v->id, version, tr, (int64_t)time(NULL), &err) < 0)
		snprintf(v->note, sizeof v->note, "not kept in the local store: %s", err.message);
	int rc = pv_take(v, tr, &err);
	if (rc != 0) {
		pv_free_blocks(v);
		snprintf(v->error, sizeof v->error, "%s", err.message);
		return -1;
	}
	v->loaded = true;
	return 0;
}

static void pv_changed(void *ud)
{
	struct pv *v = ud;
	pane_dirty(v->pane);
}

/* An export that ended after its preview closed: its file is taken into the store. */
static int pv_orphan_export(struct pv *v)
{
	struct steno_transcript tr;
	struct steno_error err;
	if (!paths_exists(v->file) || jobs_extra_transcript_load(v->file, &tr, &err) != 0)
		return -1;
	unlink(v->file);
	int rc = pv_show(v, &tr, "");
	steno_transcript_free(&tr);
	return rc;
}

static int pv_fetch(struct pv *v)
{
	struct steno_error err;
	steno_error_clear(&err);
	struct tfetch_opts o = { .http = v->env.http, .jobs = v->env.jobs, .id = v->id,
				 .dir = v->dir, .file = v->file,
				 .allow_export = !v->pane->ctx->read_only,
				 .changed = pv_changed, .ud = v };
	if (transcript_fetch_start(&v->fetch, &o, &err) != 0)
		snprintf(v->error, sizeof v->error, "%s", err.message);
	return 0;
}

static int pv_open(struct pane *p, void *arg)
{
	struct pv *v = calloc(1, sizeof *v);
	if (!v)
		return -1;
	if (dialog_env_copy(&v->env, arg) != 0) {
		free(v);
		return -1;
	}
	p->data = v;
	v->pane = p;
	v->match = -1;
	snprintf(v->id, sizeof v->id, "%s", v->env.n_ids ? v->env.ids[0] : "");
	struct localdb *ldb = v->env.store ? store_localdb(v->env.store) : NULL;
	v->db = ldb ? localdb_handle(ldb) : NULL;
	if (v->id[0] && pv_from_store(v) != 0)
		return 0;
	if (jobs_extra_transcript_path(v->env.cache_dir, v->id, v->dir, sizeof v->dir, v->file,
				       sizeof v->file) != 0) {
		snprintf(v->error, sizeof v->error, v->id[0] ? "no cache directory for the transcript" :
			 "select a transcription first");
		return 0;
	}
	if (pv_orphan_export(v) == 0)
		return 0;
	v->error[0] = '\0';
	return pv_fetch(v);
}

static void pv_close(struct pane *p)
{
	struct pv *v = p->data;
	if (!v)
		return;
	/* a fallback export job keeps going: the next preview takes its file */
	transcript_fetch_free(v->fetch);
	pv_free_blocks(v);
	dialog_env_free(&v->env);
	free(v);
	p->data = NULL;
}

/* Follows the fetch; shows and keeps the content once it is there. */
static void pv_sync(struct pv *v)
{
	struct transcript_fetch *f = v->fetch;
	if (v->loaded || !f)
		return;
	transcript_fetch_sync(f);
	if (f->step != TFETCH_DONE && f->step != TFETCH_FAILED)
		return;
	snprintf(v->note, sizeof v->note, "%s", f->note);
	if (f->step == TFETCH_FAILED)
		snprintf(v->error, sizeof v->error, "%s", f->error.message);
	else
		pv_show(v, &f->transcript, f->version);
	transcript_fetch_free(f);
	v->fetch = NULL;
}

static const char *pv_step_text(const struct transcript_fetch *f)
{
	return f->step == TFETCH_RETRIEVING ? "reading the transcription ..." :
	       "reading the transcript from its downloadUrl ...";
}

static int pv_add_line(struct pv *v, size_t block, bool header, size_t from, size_t to)
{
	if (!(v->n_lines & 63)) {
		struct pv_line *l = realloc(v->lines, (v->n_lines + 64) * sizeof *l);
		if (!l)
			return -1;
		v->lines = l;
	}
	v->lines[v->n_lines++] = (struct pv_line){ block, header, from, to };
	return 0;
}

/* Wraps every block to cols (only when the width changed). */
static void pv_wrap(struct pv *v, int cols)
{
	if (v->wrap_cols == cols || cols < 4)
		return;
	free(v->lines);
	v->lines = NULL;
	v->n_lines = 0;
	v->wrap_cols = cols;
	for (size_t b = 0; b < v->n_blocks; b++) {
		const wchar_t *t = v->blocks[b].text;
		size_t n = wcslen(t), i = 0;
		if (pv_add_line(v, b, true, 0, 0) != 0)
			return;
		while (i < n) {
			size_t j = text_wrap_row(t, i, n, cols - 2, 0);
			if (pv_add_line(v, b, false, i, j) != 0)
				return;
			i = j;
		}
		if (b + 1 < v->n_blocks && pv_add_line(v, b, false, 0, 0) != 0)
			return;
	}
}

static bool line_has(const struct pv *v, size_t li, const wchar_t *q, size_t qlen)
{
	const struct pv_line *l = &v->lines[li];
	const struct pv_block *b = &v->blocks[l->block];
	wchar_t *hb = l->header ? text_sanitize(b->header, 0) : NULL;
	const wchar_t *s = l->header ? hb : b->text + l->from;
	size_t n = l->header ? (hb ? wcslen(hb) : 0) : l->to - l->from;
	bool hit = false;
	for (size_t i = 0; s && !hit && i + qlen <= n; i++) {
		size_t k = 0;
		while (k < qlen && towlower((wint_t)s[i + k]) == towlower((wint_t)q[k]))
			k++;
		hit = k == qlen;
	}
	free(hb);
	return hit;
}

/* The next (dir 1) or previous (-1) line matching the query, from `from`; wraps around. */
static long pv_find(const struct pv *v, long from, int dir)
{
	if (!v->qlen || !v->n_lines)
		return -1;
	long n = (long)v->n_lines;
	for (long k = 0; k < n; k++) {
		long i = ((from + dir * k) % n + n) % n;
		if (line_has(v, (size_t)i, v->query, v->qlen))
			return i;
	}
	return -1;
}

static void pv_goto_match(struct pv *v, long from, int dir)
{
	v->match = pv_find(v, from, dir);
	if (v->match >= 0)
		listview_select(&v->lv, (int)v->match);
}

static unsigned pv_search_key(struct pv *v, ui_key key)
{
	if (key == 27) {
		v->searching = false;
	} else if (key == '\n' || key == '\r') {
		v->searching = false;
		pv_goto_match(v, v->lv.cursor, 1);
	} else if (!typed_line_key(v->query, &v->qlen, sizeof v->query / sizeof *v->query, key)) {
		v->searching = false;
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned pv_key(struct pane *p, enum action_id act, ui_key key)
{
	struct pv *v = p->data;
	pv_sync(v);
	if (v->searching)
		return pv_search_key(v, key);
	if (pane_act_leaves(act))
		return PANE_HANDLED | PANE_CLOSE;
	switch (act) {
	case ACT_SEARCH:
	case ACT_FILTER:
		v->searching = true;
		v->qlen = 0;
		v->query[0] = L'\0';
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_SEARCH_NEXT:
		pv_goto_match(v, v->match >= 0 ? v->match + 1 : v->lv.cursor, 1);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_SEARCH_PREV:
		pv_goto_match(v, v->match >= 0 ? v->match - 1 : v->lv.cursor, -1);
		return PANE_HANDLED | PANE_REDRAW;
	default:
		break;
	}
	if (listview_action(&v->lv, act) >= 0)
		return PANE_HANDLED | PANE_REDRAW;
	return PANE_HANDLED;   /* modal: nothing reaches the panes below */
}

static void pv_draw_line(struct pv *v, WINDOW *w, int y, int cols, size_t li, unsigned flags)
{
	const struct pv_line *l = &v->lines[li];
	const struct pv_block *b = &v->blocks[l->block];
	bool hit = (long)li == v->match;
	if (l->header) {
		style_set(w, hit ? THEME_LIST_SELECTED : THEME_DIALOG_TITLE);
		draw_text(w, y, 2, cols, b->header, TEXT_LEFT, flags);
		return;
	}
	style_set(w, hit ? THEME_LIST_SELECTED : THEME_DIALOG);
	wchar_t *piece = calloc(l->to - l->from + 1, sizeof *piece);
	if (!piece)
		return;
	wmemcpy(piece, b->text + l->from, l->to - l->from);
	draw_wtext(w, y, 4, cols - 2, piece, TEXT_LEFT, flags);
	free(piece);
}

static void pv_draw(struct pane *p)
{
	struct pv *v = p->data;
	bool ascii = p->ctx->ascii;
	unsigned flags = ascii ? TEXT_ASCII : 0;
	int rows = p->rows - 2, cols = p->cols - 4;
	char title[300], q[400];
	pv_sync(v);
	snprintf(title, sizeof title, "Transcript%s: %s", v->from_store ? " (from the local store)" : "",
		 dialog_tr_name(&v->env, v->id));
	form_draw_frame(p->win, title, "j/k: scroll  /: search  n/N: next/previous  q/Esc: close", ascii);
	if (!v->loaded) {
		const struct transcript_fetch *fe = v->fetch;
		const struct steno_job *j = fe && fe->step == TFETCH_EXPORTING ?
			jobs_get(v->env.jobs, fe->job) : NULL;
		style_set(p->win, v->error[0] ? THEME_DIALOG_ERROR : THEME_DIALOG);
		if (v->error[0]) {
			form_draw_wrapped(p->win, 2, 2, cols, rows - 2, v->error, ascii);
		} else if (j) {
			form_draw_wrapped(p->win, 2, 2, cols, 2, fe->note, ascii);
			dialog_draw_job(p->win, 4, 2, cols, j, ascii);
		} else if (fe) {
			draw_text(p->win, 2, 2, cols, pv_step_text(fe), TEXT_LEFT, flags);
		}
		return;
	}
	pv_wrap(v, cols);
	int top = v->note[0] ? 2 : 1;   /* a note (the fallback export) takes the first line */
	if (v->note[0]) {
		style_set(p->win, THEME_NOTICE);
		draw_text(p->win, 1, 2, cols, v->note, TEXT_LEFT, flags);
		rows--;
	}
	int body = v->searching || v->qlen ? rows - 1 : rows;
	listview_resize(&v->lv, (int)v->n_lines, body > 0 ? body : 1);
	/* the cursor is the top line: keep it there, and the last page full */
	int maxtop = (int)v->n_lines - body;
	if (v->lv.cursor > maxtop)
		v->lv.cursor = maxtop > 0 ? maxtop : 0;
	v->lv.top = v->lv.cursor;
	for (int r = 0; r < body && (size_t)(v->lv.top + r) < v->n_lines; r++)
		pv_draw_line(v, p->win, top + r, cols, (size_t)(v->lv.top + r), flags);
	if (v->searching || v->qlen) {
		char qq[300];
		snprintf(q, sizeof q, "/%s%s", typed_line_utf8(v->query, v->qlen, qq, sizeof qq),
			 v->searching ? "_" : v->match < 0 ? "  (not found)" : "");
		style_set(p->win, v->match < 0 && !v->searching ? THEME_DIALOG_ERROR : THEME_NOTICE);
		draw_text(p->win, top - 1 + rows, 2, cols, q, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_DIALOG);
}

const struct pane_ops pane_preview_ops = {
	.name = "preview",
	.scope = SCOPE_PREVIEW,
	.place = PANE_PLACE_OVERLAY,
	.open = pv_open,
	.draw = pv_draw,
	.key = pv_key,
	.close = pv_close,
};
