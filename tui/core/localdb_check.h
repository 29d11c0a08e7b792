#ifndef STENO_CORE_LOCALDB_CHECK_H
#define STENO_CORE_LOCALDB_CHECK_H

/* Inside core/localdb*.c only: the store's handle, and the check of its pages moved out of the
 * way of the first rows (core/localdb_check.c; the API in core/localdb.h). */

#include <stdbool.h>
#include <sqlite3.h>

struct localdb_check;

/* Ownership: h and path are closed/freed by localdb_close, check stopped and freed there. */
struct localdb {
	sqlite3 *h;
	char *path;
	bool skip_check;
	struct localdb_check *check;
};

/* What makes a file bad, for the message; "" when it is fine. */
struct verdict {
	char why[256];
	bool io;        /* not the file's fault (busy, I/O): no set-aside, no store */
};

bool localdb_corrupt_code(int rc);
/* PRAGMA quick_check(1) on h into v. */
void localdb_quick_check(sqlite3 *h, struct verdict *v);
/* A check of an earlier run found the file at path (that very file: device and inode) damaged:
 * true with v->why set. The mark is removed either way. */
bool localdb_marked_damaged(const char *path, struct verdict *v);
/* Interrupts a running check, waits for its thread, frees it. */
void localdb_check_stop(struct localdb *db);

#endif
