#ifndef STENO_CLI_CMD_LS_H
#define STENO_CLI_CMD_LS_H

/* `steno ls`, its output side (cmd_ls_out.c: ids already printed, pages as they arrived,
 * the table / JSON array / NDJSON lines) and its page fetching (cmd_ls.c). */

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/transcription.h"
#include "cli/out.h"
#include "core/query.h"

/* A set of ids already printed (open addressing; strings owned). */
struct idset {
	char **slot;
	size_t cap, n;
};

void idset_free(struct idset *s);

/* The output side: items in page order, as a table or as a streamed JSON array. */
struct ls_out {
	bool json, ndjson;          /* ndjson: one item a line, then a paging line */
	bool quiet;                 /* -q: the ids alone, one a line */
	long limit;                 /* --limit: at most this many items (0: all) */
	bool limit_reached;         /* ... and they are out: the listing stops */
	int sort;                   /* --sort: an LS_SORT_ key (0: the server's order) */
	bool sort_desc;             /* --sort -KEY */
	json_object *sorted;        /* --sort: the items, kept until the end */
	int cols[9];                /* --fields: the columns (LS_F_), in order */
	size_t ncols;               /* 0: the default table; JSON: every key */
	const char *heads[9];       /* the table's heads (--fields) */
	const struct query *where;  /* --where; NULL: every item */
	size_t printed;
	long pages;                 /* pages printed */
	bool more;                  /* the last page printed links to another */
	bool closed;                /* stdout's reader went away: stop */
	struct idset seen;
	struct out_table table;
};

extern const char *const ls_heads[6];

/* --fields a,b and --sort KEY: the names of ls_field_names. -1 when unknown. */
enum { LS_F_ID, LS_F_STATE, LS_F_LANGUAGE, LS_F_LENGTH, LS_F_CREATED, LS_F_NAME, LS_F_TAGS,
       LS_F_COST, LS_F_UPDATED, LS_F_N };
int ls_field(const char *name, size_t len);
/* Sets o->cols, o->heads from "a,b" (0, or -1 naming the bad one into bad). */
int ls_fields_parse(struct ls_out *o, const char *csv, char *bad, size_t n);
/* Whether the item is the parsed JSON of the page (JSON output, or kept for --sort). */
static inline bool ls_out_raw(const struct ls_out *o)
{
	return o->json || o->sort;
}

/* A page as it arrived: typed for the table, or the server's objects for --json (so the
 * body is parsed once either way). Ownership: ls_page_free. */
struct ls_page {
	struct steno_transcription_page typed;
	json_object *root;      /* JSON mode: the whole body */
	json_object *results;   /* borrowed from root */
	size_t n;               /* items (objects) */
	bool has_next;
};

void ls_page_free(struct ls_page *p);
/* Parses a list page: typed for the table, the server's objects for JSON. 0 or -1 with err. */
int ls_page_parse(bool json, const char *body, size_t len, struct ls_page *p,
		  struct steno_error *err);
/* The page's next link, or NULL. Borrowed. */
const char *ls_page_next_url(const struct ls_page *p);
/* Emits one page's items (an item seen before is skipped), at once (a table's rows too, in
 * the widths of its first rows). 0, -1 (no memory) or -2 (stdout closed: o->closed). */
int ls_out_page(struct ls_out *o, const struct ls_page *p);
void ls_out_finish(struct ls_out *o, long first_page, bool all);

struct cli_ctx;
/* cli/cmd_cache.c: the view's rows from the local store as one page (ls --cached, and ls
 * under --offline), no request. Returns an exit code (a message was printed). */
int cache_ls(struct cli_ctx *c, const char *org, const char *folder, const char *tags,
	     struct ls_out *out);
/* Under --offline: what the local store keeps of a resource (kind 0 transcription, 1 export,
 * 2 translation task, 3 order) as the API's JSON, malloc'd; NULL after a message. */
char *cache_resource(struct cli_ctx *c, int kind, const char *id);
/* An answer kept whole ("organizations"): kept after a read (quietly: no store, no error),
 * and read back under --offline (malloc'd; NULL after a message). */
void cache_answer_keep(struct cli_ctx *c, const char *key, const char *body);
char *cache_answer(struct cli_ctx *c, const char *key);
/* A live `steno ls` writes what it reads into the store (as the browser's sync engine does):
 * the list's view, opened quietly (NULL: no store, nothing kept); its pages in order, the
 * first one restarting the list. cache_keep_page takes *page (kept or freed). */
struct cache_keep;
struct cache_keep *cache_keep_open(struct cli_ctx *c, const char *org, const char *folder,
				   const char *tags);
void cache_keep_page(struct cache_keep *k, struct steno_transcription_page *page, bool first);
void cache_keep_close(struct cache_keep *k);
/* The same without a message: NULL when the store keeps none (or cannot be had). */
char *cache_answer_quiet(struct cli_ctx *c, const char *key);

#endif
