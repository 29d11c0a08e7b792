/* The check of the store's pages, moved out of the way of the first rows (core/localdb.h,
 * localdb_check_start): a thread runs PRAGMA quick_check(1) on its own read-only connection;
 * a damaged file is marked in PATH.damaged and set aside by the next localdb_open. */
#include "config.h"
#include "core/localdb.h"
#include "core/localdb_check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ownership: the thread's own connection `h` is opened and closed by the thread; the rest is
 * freed by localdb_check_stop once the thread is joined. */
struct localdb_check {
	pthread_t thread;
	pthread_mutex_t lock;   /* guards h, stop, done, why */
	pthread_cond_t ended;
	sqlite3 *h;
	bool stop, done;
	char path[4200];
	char why[256];          /* the verdict once done: "" sound (or interrupted) */
};

static void mark_path(const char *path, char *out, size_t size)
{
	snprintf(out, size, "%s.damaged", path);
}

/* Writes PATH.damaged: "DEV INO\nWHY\n", through a temporary file renamed over it. */
static void mark_damaged(const char *path, const struct stat *st, const char *why)
{
	char mark[4300], tmp[4400];
	mark_path(path, mark, sizeof mark);
	snprintf(tmp, sizeof tmp, "%s.%ld", mark, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	fprintf(f, "%llu %llu\n%s\n", (unsigned long long)st->st_dev,
		(unsigned long long)st->st_ino, why);
	if (fclose(f) != 0 || rename(tmp, mark) != 0)
		unlink(tmp);
}

bool localdb_marked_damaged(const char *path, struct verdict *v)
{
	char mark[4300], line[512] = "";
	unsigned long long dev = 0, ino = 0;
	struct stat st;
	mark_path(path, mark, sizeof mark);
	FILE *f = fopen(mark, "re");
	if (!f)
		return false;
	bool same = fscanf(f, "%llu %llu\n", &dev, &ino) == 2 && fgets(line, sizeof line, f) &&
		    stat(path, &st) == 0 && (unsigned long long)st.st_dev == dev &&
		    (unsigned long long)st.st_ino == ino;
	fclose(f);
	unlink(mark);
	if (!same)
		return false;
	line[strcspn(line, "\n")] = '\0';
	snprintf(v->why, sizeof v->why, "%.200s, found by an earlier run's check", line);
	v->io = false;
	return true;
}

static void *check_main(void *arg)
{
	struct localdb_check *c = arg;
	struct verdict v;
	struct stat st;
	sqlite3 *h = NULL;
	memset(&v, 0, sizeof v);
	bool seen = stat(c->path, &st) == 0;
	int rc = sqlite3_open_v2(c->path, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h, LOCALDB_BUSY_DEFAULT_MS);
		sqlite3_extended_result_codes(h, 1);
		localdb_register_functions(h);
	}
	pthread_mutex_lock(&c->lock);
	c->h = h;
	bool run = rc == SQLITE_OK && !c->stop;
	pthread_mutex_unlock(&c->lock);
	if (run)
		localdb_quick_check(h, &v);
	pthread_mutex_lock(&c->lock);
	c->h = NULL;
	/* interrupted (localdb_close), busy or I/O: no verdict on the file */
	bool bad = run && v.why[0] && !v.io && !c->stop;
	if (bad)
		snprintf(c->why, sizeof c->why, "%s", v.why);
	pthread_mutex_unlock(&c->lock);
	sqlite3_close(h);
	if (bad && seen)
		mark_damaged(c->path, &st, c->why);
	pthread_mutex_lock(&c->lock);
	c->done = true;
	pthread_cond_broadcast(&c->ended);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int localdb_check_start(struct localdb *db)
{
	if (!db || db->skip_check)
		return 0;
	if (db->check)
		return 0;
	struct localdb_check *c = calloc(1, sizeof *c);
	if (!c)
		return -1;
	snprintf(c->path, sizeof c->path, "%s", db->path);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->ended, NULL);
	if (pthread_create(&c->thread, NULL, check_main, c) != 0) {
		pthread_cond_destroy(&c->ended);
		pthread_mutex_destroy(&c->lock);
		free(c);
		return -1;
	}
	db->check = c;
	return 0;
}

const char *localdb_check_result(struct localdb *db)
{
	struct localdb_check *c = db ? db->check : NULL;
	if (!c)
		return NULL;
	pthread_mutex_lock(&c->lock);
	bool done = c->done;
	pthread_mutex_unlock(&c->lock);
	return done && c->why[0] ? c->why : NULL;
}

const char *localdb_check_wait(struct localdb *db)
{
	struct localdb_check *c = db ? db->check : NULL;
	if (!c)
		return NULL;
	pthread_mutex_lock(&c->lock);
	while (!c->done)
		pthread_cond_wait(&c->ended, &c->lock);
	pthread_mutex_unlock(&c->lock);
	return c->why[0] ? c->why : NULL;
}

void localdb_check_stop(struct localdb *db)
{
	struct localdb_check *c = db->check;
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	if (c->h)
		sqlite3_interrupt(c->h);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->ended);
	pthread_mutex_destroy(&c->lock);
	free(c);
	db->check = NULL;
}
