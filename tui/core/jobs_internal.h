#ifndef STENO_CORE_JOBS_INTERNAL_H
#define STENO_CORE_JOBS_INTERNAL_H

/* Shared by jobs.c (manager, waits), jobs_start.c (starters, creation), jobs_download.c and
 * jobs_resolve.c. Not for others. */

#include "core/jobs.h"
#include "core/scheduler.h"

/* One job. Ownership: the manager's; everything malloc'd, freed by job_free. */
struct job {
	struct steno_job pub;
	struct steno_jobs *jm;
	bool wait;
	char *upload_path;
	const char *media_url;             /* the signed URL after the upload (in owned) */
	char **owned;                      /* strings the request copies point into */
	size_t n_owned;
	bool nomem;
	struct steno_transcription_create_req treq;
	struct steno_order_create_req oreq;
	const char **treq_tags, **oreq_tags; /* the arrays behind treq.tags / oreq.tags */
	int64_t *glossary_ids;             /* behind oreq.glossary_ids */
	char *dir, *name;                  /* export download */
	bool overwrite;
	bool link_reread;                  /* the export was read again after a refused link */
	int wait_errors;
	int64_t started_wall_ms;            /* realtime ms when the job started */
	/* the claim of a transcription's creation in the state file (jobs_resolve.c) */
	char claim_token[33];               /* "" when none was recorded */
	int64_t resolve_at_ms;              /* monotonic: look again then (0: not planned) */
	int64_t resolve_until_ms;           /* monotonic: stop waiting for others then */
};

struct steno_jobs {
	struct jobs_config cfg;            /* cfg.organization_id points to org */
	char *org;
	struct scheduler *sched;
	struct job **jobs;
	size_t n;
	int next_id;
};

int64_t jobs_now_ms(void);
struct job *jobs_add(struct steno_jobs *jm, enum job_kind kind, struct steno_error *err);
void jobs_remove(struct steno_jobs *jm, struct job *j);
void job_emit(struct job *j);
void job_set_step(struct job *j, enum job_step step);
/* Fails the job with err (copied) or a message. */
void job_fail(struct job *j, const struct steno_error *err);
int job_set_str(struct job *j, char **dst, const char *src);
/* Where the job's download goes (copies; j->nomem when out of memory). */
void job_set_download(struct job *j, const char *dir, const char *name, bool overwrite);
/* A resource arrived (create or retrieve): records id/state, then finishes, fails or waits. */
void job_resource_state(struct job *j, enum sched_kind kind, const char *id, const char *state,
			bool failure_final, const char *failure_reason);
/* Makes the POST of a job whose upload (if any) is done. */
int job_create(struct job *j, const char *media_url, struct steno_error *err);
const char *job_own(struct job *j, const char *s);
/* A create whose answer was lost (outcome_unknown): look for what it made; a transcription
 * found (its own, core/jobs_resolve.c) carries the job on, else it fails saying what is
 * known (outcome_unknown, ambiguous). */
void jobs_resolve_lost_create(struct job *j, const struct steno_error *err);
/* Before a transcription's POST: its claim (token, what was sent) into the state file. */
void jobs_claim_begin(struct job *j);
/* The server refused the POST (it made nothing): the claim is over, so that no other
 * process's lookup waits for it while this process lives on (the browser). */
void jobs_claim_refused(struct job *j);
/* The POST's reply named its item: the claim gets the id. */
void jobs_claim_created(struct job *j, const char *id);
/* The lookups planned for later (waiting for other processes' replies): ms until the next
 * (-1: none), and the tick that starts the due ones. */
long jobs_resolve_next_ms(const struct steno_jobs *jm, int64_t now);
void jobs_resolve_tick(struct steno_jobs *jm, int64_t now);
/* A created or retrieved resource: moved into the store (when there is one), then the job
 * advances. The struct's contents are taken. */
void jobs_order_result(struct job *j, struct steno_order *o);
void jobs_export_result(struct job *j, struct steno_export *e);
void jobs_task_result(struct job *j, struct steno_translation_task *t);

#endif
