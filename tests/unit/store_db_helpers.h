#ifndef STENO_TEST_STORE_DB_HELPERS_H
#define STENO_TEST_STORE_DB_HELPERS_H

/* The core unit tests' way to a store written through to a local store on disk: the local
 * store of a server (any origin: nothing is sent) in the cache dir given. */

#include <criterion/criterion.h>
#include <stdint.h>

#include "core/localdb.h"
#include "core/store.h"

/* A new store with the local store of cache_dir attached; wall_ms NULL: the real clock. The
 * store owns the local store (store_free closes it). */
static inline struct steno_store *store_db_open_at(const char *cache_dir,
						   int64_t (*wall_ms)(void *ud),
						   struct steno_error *fail)
{
	struct steno_store *store = store_new();
	cr_assert_not_null(store);
	struct localdb_options o = { .cache_dir = cache_dir, .base_url = "http://127.0.0.1:1" };
	struct localdb *ldb = NULL;
	cr_assert_eq(localdb_open(&o, &ldb, NULL, fail), 0, "%s", fail->message);
	cr_assert_eq(store_attach_db(store, ldb, wall_ms, NULL, fail), 0, "%s", fail->message);
	return store;
}

#endif
