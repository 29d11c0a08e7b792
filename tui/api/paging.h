#ifndef STENO_API_PAGING_H
#define STENO_API_PAGING_H

/* Following a list's `_links.next.url`, for `steno ls --all` and the browser's load-more alike:
 * - a next link that dropped a parameter of the first request (organization_id, folder_id,
 *   tags: the real service's links carry no organization_id) gets it back, so page 2 asks for
 *   the same list as page 1;
 * - a next link seen before (a loop) ends the walk with an error instead of looping;
 * - at most `limit` pages are read (a server whose links never end would otherwise be
 *   followed forever): past it the walk ends with an error that says so.
 * Ownership: the caller owns the struct; steno_pager_free frees what it holds. */

#include <stddef.h>

#include "api/error.h"

#define STENO_PAGER_DEFAULT_LIMIT 1000
/* err->code when a walk is stopped by the limit or a repeated link. */
#define STENO_CODE_PAGE_LIMIT "page_limit"
#define STENO_CODE_PAGE_LOOP "page_loop"

struct steno_pager {
	long limit;          /* pages at most (the first included) */
	long pages;          /* pages read so far */
	char **seen;         /* next links already followed */
	size_t nseen, cap;
	char *keep;          /* "name=value&..." (escaped) of the first request's parameters */
};

/* Starts a walk; limit <= 0 gives STENO_PAGER_DEFAULT_LIMIT. */
void steno_pager_init(struct steno_pager *p, long limit);
/* A parameter of the first request that every next link must carry (NULL value: none).
 * 0, or -1 on no memory. */
int steno_pager_keep(struct steno_pager *p, const char *name, const char *value);
/* A page arrived whose next link is `next` (NULL or "" when none). Returns 1 with *out the URL
 * of the next page (malloc'd: the link with the kept parameters it lacked), 0 when the list ends
 * here, or -1 with err: the link repeats an earlier one (code page_loop), the page limit is
 * reached while more pages exist (code page_limit), no memory, or the link does not parse. */
int steno_pager_next(struct steno_pager *p, const char *next, char **out, struct steno_error *err);
/* Counts a page that was not reached through steno_pager_next (requested by number); 0, or -1
 * with err (code page_limit) when this page would pass the limit. */
int steno_pager_count(struct steno_pager *p, struct steno_error *err);
void steno_pager_free(struct steno_pager *p);

#endif
