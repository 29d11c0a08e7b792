#include "config.h"

#include "cli/out.h"

#include "api/jget.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

/* Decodes one UTF-8 character; returns its length (1..4) and sets *cp, or 0 when invalid. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	if (n == 0 || s[0] > 0xf4)
		return 0;
	uint32_t v = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
	if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

static bool is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* Skips an escape sequence starting at s (s[0] == ESC); returns the bytes to skip. */
static size_t skip_escape(const unsigned char *s)
{
	size_t i = 1;
	if (s[i] == '[') {
		for (i++; s[i] && !(s[i] >= 0x40 && s[i] <= 0x7e); i++)
			;
		return s[i] ? i + 1 : i;
	}
	if (s[i] == ']' || s[i] == 'P' || s[i] == '_' || s[i] == '^') {
		for (i++; s[i] && s[i] != 0x07 && !(s[i] == 0x1b && s[i + 1] == '\\'); i++)
			;
		if (s[i] == 0x07)
			return i + 1;
		return s[i] ? i + 2 : i;
	}
	return s[i] ? 2 : 1;
}

char *out_clean(const char *in)
{
	if (!in)
		in = "";
	const unsigned char *s = (const unsigned char *)in;
	size_t len = strlen(in);
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	while (*s) {
		uint32_t cp = 0;
		if (*s == 0x1b) {
			s += skip_escape(s);
			continue;
		}
		size_t n = utf8_decode(s, &cp);
		if (n == 0) {
			out[o++] = '?';
			s++;
			continue;
		}
		if (cp == '\t' || cp == '\n' || cp == '\r')
			out[o++] = ' ';
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || is_bidi_control(cp))
			; /* dropped */
		else
			memcpy(out + o, s, n), o += n;
		s += n;
	}
	out[o] = '\0';
	return out;
}

size_t out_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t w = 0;
	while (s && *s) {
		uint32_t cp = 0;
		size_t n = utf8_decode(s, &cp);
		if (n == 0) {
			w++;
			s++;
			continue;
		}
		int cw = wcwidth((wchar_t)cp);
		w += cw < 0 ? 1 : (size_t)cw;
		s += n;
	}
	return w;
}

void out_table_init(struct out_table *t, size_t ncols, const char *const *heads)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->heads = heads;
}

int out_table_add(struct out_table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		char **c = realloc(t->cells, cap * t->ncols * sizeof(*c));
		if (!c)
			return -1;
		t->cells = c;
		t->cap = cap;
	}
	char **row = t->cells + t->nrows * t->ncols;
	for (size_t i = 0; i < t->ncols; i++) {
		row[i] = out_clean(cells[i] ? cells[i] : "-");
		if (!row[i]) {
			while (i-- > 0)
				free(row[i]);
			return -1;
		}
	}
	t->nrows++;
	return 0;
}

static void print_cell(FILE *f, const char *s, size_t width, bool last)
{
	fputs(s, f);
	if (last)
		return;
	for (size_t w = out_width(s); w < width + 2; w++)
		fputc(' ', f);
}

static bool sel_quiet, sel_bad;
static const char *sel_fields;

void out_select(bool quiet, const char *fields)
{
	sel_quiet = quiet;
	sel_fields = fields;
	sel_bad = false;
}

bool out_select_bad(void)
{
	return sel_bad;
}

/* The columns of --fields (indexes into cols, at most t->ncols), or quiet's first. */
static size_t selected_columns(const struct out_table *t, size_t *cols)
{
	if (sel_quiet) {
		cols[0] = 0;
		return 1;
	}
	size_t n = 0;
	for (const char *p = sel_fields; p && *p && n < t->ncols;) {
		size_t len = strcspn(p, ",");
		size_t c = 0;
		while (c < t->ncols && (strlen(t->heads[c]) != len || strncasecmp(t->heads[c], p, len)))
			c++;
		if (c < t->ncols)
			cols[n++] = c;
		else if (len) {
			fprintf(stderr, "steno: --fields: no column %.*s\n", (int)len, p);
			sel_bad = true;
		}
		p += len + (p[len] == ',');
	}
	return n;
}

/* A table under -q or --fields. */
static void print_selected(const struct out_table *t, FILE *f)
{
	size_t *cols = calloc(t->ncols ? t->ncols : 1, sizeof(*cols));
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(*w));
	size_t n = cols && w ? selected_columns(t, cols) : 0;
	for (size_t k = 0; k < n; k++) {
		w[k] = out_width(t->heads[cols[k]]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t cw = out_width(t->cells[r * t->ncols + cols[k]]);
			if (cw > w[k])
				w[k] = cw;
		}
	}
	for (size_t k = 0; k < n && !sel_quiet; k++)
		print_cell(f, t->heads[cols[k]], w[k], k + 1 == n);
	if (n && !sel_quiet)
		fputc('\n', f);
	for (size_t r = 0; r < t->nrows && n; r++) {
		for (size_t k = 0; k < n; k++)
			print_cell(f, t->cells[r * t->ncols + cols[k]], w[k], k + 1 == n);
		fputc('\n', f);
	}
	free(cols);
	free(w);
}

void out_table_print(const struct out_table *t, FILE *f)
{
	if (sel_quiet || sel_fields) {
		print_selected(t, f);
		return;
	}
	size_t *w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = out_width(t->heads[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t cw = out_width(t->cells[r * t->ncols + c]);
			if (cw > w[c])
				w[c] = cw;
		}
	}
	for (size_t c = 0; c < t->ncols; c++)
		print_cell(f, t->heads[c], w[c], c + 1 == t->ncols);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			print_cell(f, t->cells[r * t->ncols + c], w[c], c + 1 == t->ncols);
		fputc('\n', f);
	}
	free(w);
}

void out_table_free(struct out_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->widths);
	memset(t, 0, sizeof(*t));
}

void out_table_flush(struct out_table *t, FILE *f, bool last)
{
	if (!t->widths) {
		if (!t->nrows && !last)
			return;
		if (!(t->widths = calloc(t->ncols, sizeof(*t->widths))))
			return;
		for (size_t c = 0; c < t->ncols; c++) {
			t->widths[c] = out_width(t->heads[c]);
			for (size_t r = 0; r < t->nrows; r++) {
				size_t cw = out_width(t->cells[r * t->ncols + c]);
				if (cw > t->widths[c])
					t->widths[c] = cw;
			}
		}
		for (size_t c = 0; c < t->ncols; c++)
			print_cell(f, t->heads[c], t->widths[c], c + 1 == t->ncols);
		fputc('\n', f);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			print_cell(f, t->cells[r * t->ncols + c], t->widths[c], c + 1 == t->ncols);
		fputc('\n', f);
	}
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	t->nrows = 0;
}

static bool stdout_closed;

bool out_stdout_closed(void)
{
	if (!stdout_closed && fflush(stdout) == EOF && errno == EPIPE)
		stdout_closed = true;
	return stdout_closed;
}

void out_kv(FILE *f, int keyw, const char *key, const char *value)
{
	char *v = out_clean(value && value[0] ? value : "-");
	fprintf(f, "%-*s %s\n", keyw, key, v ? v : "?");
	free(v);
}

/* json-c escapes only C0 controls and writes strings' bytes as they are: DEL, C1 controls,
 * bidi formatting characters and invalid UTF-8 (a lone 0x9B is a CSI to some terminals)
 * would go out raw. Invalid bytes become U+FFFD and the others \uXXXX escapes: valid UTF-8,
 * the same JSON values. JSON text outside strings is ASCII, so this only touches strings. */
void out_json_text(FILE *f, const char *json)
{
	const char *p = json, *run = p;
	size_t left = strlen(json);

	while (left) {
		size_t len;
		long cp = jget_utf8_next(p, left, &len);
		/* raw C0 in json-c's output is its own layout (newlines): strings have them escaped */
		if (cp >= 0 && (cp < 0x20 || !jget_char_unsafe(cp))) {
			p += len;
			left -= len;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), f);
		fprintf(f, "\\u%04lx", cp < 0 ? 0xfffdL : cp);
		p += len;
		left -= len;
		run = p;
	}
	fwrite(run, 1, (size_t)(p - run), f);
}

static bool list_open;
static size_t list_items;

void out_json_list_begin(void)
{
	fputs("[\n", stdout);
	list_open = true;
	list_items = 0;
}

bool out_json_list_open(void)
{
	return list_open;
}

void out_json_list_item(FILE *f)
{
	if (list_open && f == stdout && list_items++ > 0)
		fputs(",\n", f);
}

void out_json_list_end(void)
{
	if (list_open)
		fputs("]\n", stdout);
	list_open = false;
	list_items = 0;
}

/* --fields on a JSON array of objects: those keys only (a new reference). */
static json_object *json_selected(json_object *obj)
{
	if (!sel_fields || !json_object_is_type(obj, json_type_array))
		return json_object_get(obj);
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && i < json_object_array_length(obj); i++) {
		json_object *o = json_object_array_get_idx(obj, i), *c = json_object_new_object(), *v;
		for (const char *p = sel_fields; c && *p;) {
			size_t len = strcspn(p, ",");
			char key[128];
			snprintf(key, sizeof key, "%.*s", (int)(len < 127 ? len : 127), p);
			if (json_object_is_type(o, json_type_object) &&
			    json_object_object_get_ex(o, key, &v))
				json_object_object_add(c, key, json_object_get(v));
			p += len + (p[len] == ',');
		}
		json_object_array_add(a, c);
	}
	return a;
}

void out_json(FILE *f, struct json_object *obj)
{
	if (f == stdout && sel_fields && json_object_is_type(obj, json_type_array)) {
		json_object *sel = json_selected(obj);
		sel_fields = NULL;   /* once */
		out_json(f, sel);
		json_object_put(sel);
		return;
	}
	out_json_list_item(f);
	out_json_text(f, json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_SPACED |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
	fputc('\n', f);
}

void out_json_line(FILE *f, struct json_object *obj)
{
	out_json_text(f, json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
	fputc('\n', f);
}

int out_json_body(FILE *f, const char *body, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	if (!tok)
		return -1;
	struct json_object *obj = json_tokener_parse_ex(tok, body ? body : "", (int)len);
	bool ok = json_tokener_get_error(tok) == json_tokener_success;
	json_tokener_free(tok);
	if (!ok) {
		json_object_put(obj);
		obj = json_object_new_string_len(body ? body : "", (int)len);
		if (!obj)
			return -1;
	}
	out_json(f, obj);   /* an element of an open list, too */
	json_object_put(obj);
	return 0;
}

void out_fmt_time_ms(char *buf, size_t n, int present, int64_t ms)
{
	if (!present) {
		snprintf(buf, n, "-");
		return;
	}
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, n, "-");
}

void out_fmt_duration(char *buf, size_t n, int present, int64_t s)
{
	if (!present || s < 0)
		snprintf(buf, n, "-");
	else if (s >= 3600)
		snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(s / 3600),
			 (long long)(s / 60 % 60), (long long)(s % 60));
	else
		snprintf(buf, n, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
}

void out_fmt_cents(char *buf, size_t n, int present, int64_t cents, const char *cur)
{
	if (!present) {
		snprintf(buf, n, "-");
		return;
	}
	const char *sign = cents < 0 ? "-" : "";
	long long a = cents < 0 ? -(long long)cents : (long long)cents;
	snprintf(buf, n, "%s%lld.%02lld%s%s", sign, a / 100, a % 100, cur ? " " : "", cur ? cur : "");
}

static int progress_on = -1;
static bool progress_showing;

void out_progress_init(void)
{
	progress_on = isatty(STDERR_FILENO) ? 1 : 0;
}

bool out_progress_enabled(void)
{
	if (progress_on < 0)
		out_progress_init();
	return progress_on == 1;
}

static void human_bytes(char *buf, size_t n, uint64_t b)
{
	if (b >= 1048576)
		snprintf(buf, n, "%.1f MiB", (double)b / 1048576.0);
	else if (b >= 1024)
		snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
	else
		snprintf(buf, n, "%llu B", (unsigned long long)b);
}

void out_progress_bytes(const char *what, uint64_t now, uint64_t total)
{
	if (!out_progress_enabled())
		return;
	char a[32], b[32];
	human_bytes(a, sizeof(a), now);
	if (total) {
		human_bytes(b, sizeof(b), total);
		out_progress_text("%s %s / %s (%d%%)", what, a, b, (int)(now * 100 / total));
	} else {
		out_progress_text("%s %s", what, a);
	}
}

void out_progress_text(const char *fmt, ...)
{
	if (!out_progress_enabled())
		return;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	char *clean = out_clean(line);
	fprintf(stderr, "\r\033[K%s", clean ? clean : "");
	free(clean);
	fflush(stderr);
	progress_showing = true;
}

void out_progress_end(void)
{
	if (progress_showing) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	progress_showing = false;
}
