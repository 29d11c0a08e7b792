#ifndef STENO_CLI_OUT_H
#define STENO_CLI_OUT_H

/* Output of the headless commands: server strings made safe for a terminal, tables aligned
 * by display width (wcwidth), JSON re-serialized from what the server sent, and progress
 * lines on stderr when stderr is a terminal. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* Copies `in` into a new string with C0/C1 controls, DEL, ESC sequences and bidi controls
 * removed, tabs and newlines turned into spaces and invalid UTF-8 replaced by '?'.
 * NULL in gives "". Caller frees; NULL on no memory. */
char *out_clean(const char *in);

/* Display width of a UTF-8 string (wcwidth per character; unknown characters count 1). */
size_t out_width(const char *s);

/* A table for people. Ownership: cells are copied (cleaned) into the table; out_table_free. */
struct out_table {
	size_t ncols;
	const char *const *heads;  /* borrowed, static */
	char **cells;              /* nrows * ncols */
	size_t nrows, cap;
	size_t *widths;            /* out_table_flush: fixed by its first print */
};

void out_table_init(struct out_table *t, size_t ncols, const char *const *heads);
/* Adds a row of ncols cells (NULL cells print as "-"). 0 or -1 (no memory). */
int out_table_add(struct out_table *t, const char *const *cells);
/* Columns padded to their widest cell; the last column is not padded. */
void out_table_print(const struct out_table *t, FILE *f);
void out_table_free(struct out_table *t);
/* -q and --fields a,b of the list commands (orgs, glossaries, style-guides, languages,
 * folders; ls has its own): a table prints its first column alone (quiet), or the columns
 * whose heads are the fields, in their order (case does not matter); a JSON array of objects
 * on stdout keeps only those keys. A field no column has is said on stderr. */
void out_select(bool quiet, const char *fields);
/* Whether --fields named a column the table does not have (the command then exits 2). */
bool out_select_bad(void);

/* Streams a table: the first call with rows (or with `last`) fixes the column widths from
 * what it has and prints the heads and the rows; later calls print their new rows with the
 * same widths (a longer cell pushes the rest of its row). Printed rows are dropped. */
void out_table_flush(struct out_table *t, FILE *f, bool last);

/* Flushes stdout; true when its reader went away (EPIPE: SIGPIPE is ignored), from then on. */
bool out_stdout_closed(void);

/* "key: value" lines with the keys aligned to `keyw` columns; value cleaned, NULL is "-". */
void out_kv(FILE *f, int keyw, const char *key, const char *value);

/* Prints `body` (JSON from the server) re-serialized, pretty, with a newline. When it is not
 * JSON it is printed as a JSON string. 0 or -1. */
int out_json_body(FILE *f, const char *body, size_t len);
/* Prints an object pretty with a newline. */
void out_json(FILE *f, struct json_object *obj);
/* A command that prints several results with --json (several IDs) prints one array: after
 * out_json_list_begin, every out_json / out_json_body on stdout is an element, and
 * out_json_list_end (run by cli_json_finish, after the failure object when there is one)
 * closes it. */
void out_json_list_begin(void);
bool out_json_list_open(void);
void out_json_list_end(void);
/* Before an element of the open list on f (a separator after the first); no list: nothing. */
void out_json_list_item(FILE *f);
/* Prints an object on one line (a line of a JSON-lines stream) with a newline. */
void out_json_line(FILE *f, struct json_object *obj);
/* Writes JSON text produced by json-c, with C1 controls and bidi formatting characters
 * (which json-c leaves raw) written as \uXXXX escapes: the same JSON value, but nothing a
 * terminal acts on. */
void out_json_text(FILE *f, const char *json);

/* Formatting helpers into caller buffers. */
void out_fmt_time_ms(char *buf, size_t n, int st_present, int64_t ms); /* "2026-01-02 03:04" / "-" */
void out_fmt_duration(char *buf, size_t n, int st_present, int64_t seconds); /* "1:02:03" */
void out_fmt_cents(char *buf, size_t n, int st_present, int64_t cents, const char *cur);

/* Progress on stderr, only when it is a terminal (decided once by out_progress_init). */
void out_progress_init(void);
bool out_progress_enabled(void);
/* Overwrites the current progress line: "what 12.3 MiB / 40.0 MiB (30%)". */
void out_progress_bytes(const char *what, uint64_t now, uint64_t total);
void out_progress_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends a progress line, if one is showing. */
void out_progress_end(void);

#endif
