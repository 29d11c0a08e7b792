/* Transcript content in the local store: the reader's read of one transcript, time codes. */
#include "config.h"
#include "core/content_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"

/* ---- the reader ---- */

void content_doc_free(struct content_doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->paras[i].speaker);
		free(d->paras[i].text);
	}
	free(d->paras);
	free(d->id);
	free(d->name);
	free(d->version);
	memset(d, 0, sizeof *d);
}

/* Appends a segment's text to the paragraph. */
static int para_append(struct content_para *p, const char *text)
{
	size_t a = p->text ? strlen(p->text) : 0, b = strlen(text);
	char *t = realloc(p->text, a + b + 1);
	if (!t)
		return -1;
	memcpy(t + a, text, b + 1);
	p->text = t;
	return 0;
}

static int load_segments(sqlite3 *db, sqlite3_int64 n, struct content_doc *d,
			 struct steno_error *err)
{
	sqlite3_stmt *st;
	long last = -1;
	size_t cap = 0;
	int step;
	bool nomem = false;

	if (content_prepare(db, "SELECT para, speaker, start_ms / 1000.0, end_ms / 1000.0, text"
			    " FROM content_segs WHERE seg BETWEEN ?1 AND ?2 ORDER BY seg", &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, n * CONTENT_SEGS_PER_ITEM);
	sqlite3_bind_int64(st, 2, n * CONTENT_SEGS_PER_ITEM + CONTENT_SEGS_PER_ITEM - 1);
	while (!nomem && (step = sqlite3_step(st)) == SQLITE_ROW) {
		long para = (long)sqlite3_column_int64(st, 0);
		if (para != last || !d->n) {
			if (d->n == cap) {
				cap = cap ? cap * 2 : 64;
				struct content_para *v = realloc(d->paras, cap * sizeof *v);
				if (!v) {
					nomem = true;
					break;
				}
				d->paras = v;
			}
			struct content_para *p = &d->paras[d->n++];
			memset(p, 0, sizeof *p);
			p->speaker = content_col_dup(st, 1, &nomem);
			p->start = p->end = -1;
			last = para;
		}
		struct content_para *p = &d->paras[d->n - 1];
		if (p->start < 0 && sqlite3_column_type(st, 2) != SQLITE_NULL)
			p->start = sqlite3_column_double(st, 2);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			p->end = sqlite3_column_double(st, 3);
		const char *text = (const char *)sqlite3_column_text(st, 4);
		if (para_append(p, text ? text : "") < 0)
			nomem = true;
	}
	int rc = nomem ? steno_error_set(err, STENO_ERR_NOMEM, "out of memory")
		: step != SQLITE_DONE ? content_sql_fail(db, err, "read a transcript") : 0;
	sqlite3_finalize(st);
	return rc;
}

int content_db_load(sqlite3 *db, const char *id, struct content_doc *out,
		    struct steno_error *err)
{
	sqlite3_stmt *st;
	bool nomem = false;
	sqlite3_int64 n = 0;

	memset(out, 0, sizeof *out);
	if (content_prepare(db, "SELECT id, name, version, fetched_s, n FROM content_view"
			    " WHERE id = ?1 AND version IS NOT NULL", &st, err) < 0)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		out->id = content_col_dup(st, 0, &nomem);
		out->name = content_col_dup(st, 1, &nomem);
		out->version = content_col_dup(st, 2, &nomem);
		out->fetched_s = sqlite3_column_int64(st, 3);
		n = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return content_sql_fail(db, err, "read a transcript");
	if (step == SQLITE_DONE)
		return 0;
	if (nomem || load_segments(db, n, out, err) < 0) {
		if (nomem)
			steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		content_doc_free(out);
		return -1;
	}
	return 1;
}

/* ---- time codes ---- */

void content_timecode(double seconds, char *buf, size_t n)
{
	if (seconds < 0 || !isfinite(seconds)) {
		snprintf(buf, n, "--:--");
		return;
	}
	long s = (long)seconds;
	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

int content_parse_timecode(const char *s, double *seconds)
{
	long part[3];
	int k = 0;
	const char *p = s;
	char *end;

	while (p && *p == ' ')
		p++;
	if (!p || !*p)
		return -1;
	if (strpbrk(p, "hms")) {   /* 1h2m3s, 12m30s, 90s */
		double total = 0;
		while (*p) {
			long v = strtol(p, &end, 10);
			if (end == p || v < 0)
				return -1;
			total += (double)v * (*end == 'h' ? 3600 : *end == 'm' ? 60 : 1);
			if (*end != 'h' && *end != 'm' && *end != 's')
				return *end ? -1 : (*seconds = total, 0);
			p = end + 1;
		}
		*seconds = total;
		return 0;
	}
	for (;;) {
		if (k == 3)
			return -1;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || (k && v >= 60))
			return -1;
		part[k++] = v;
		if (*end == '\0')
			break;
		if (*end != ':')
			return -1;
		p = end + 1;
	}
	double total = 0;
	for (int i = 0; i < k; i++)
		total = total * 60 + (double)part[i];
	*seconds = total;
	return 0;
}
