#ifndef STENO_CORE_JOBS_H
#define STENO_CORE_JOBS_H

/* Jobs: the multi-step operations shared by the commands and the TUI, as small state machines
 * on the engine's endpoint calls (api/endpoints.h). Nothing blocks: every step submits a
 * request and returns; completions advance the machine from steno_http_perform, and waits are
 * timed by a poll scheduler (core/scheduler.h) that the caller's loop drives with
 * jobs_timeout_ms / jobs_tick (or jobs_run in a command).
 *
 *   transcribe:        [uploads/new -> PUT file] -> POST /transcriptions -> [wait until final]
 *   order:             [uploads/new -> PUT file] -> POST /orders -> [wait until final]
 *   export:            POST /exports -> wait until ready -> [download to a directory]
 *   translation order: POST /orders/translation -> [wait until final]
 *   translation task:  POST /task/transcription_translation -> [wait until final]
 *   confirm:           POST /orders/ID/confirm -> [wait until final]
 *   download:          a ready export's file into a directory (no POST: it exists);
 *                      a refused link: GET /exports/ID once, then the fresh link
 *
 * Every resource a job creates or reads is also handed to the store (when one is given), so
 * the TUI's panes follow; folders of created orders and transcriptions are remembered in the
 * state (when one is given). A POST is never repeated: if it fails, the job fails and says
 * what is known. Every job that ends (done, failed, cancelled) records its end on the order,
 * export or task it made or followed in the store (store_activity_job_end, in the words of
 * jobs_end_text), so that the activity pane tells what happened to it. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/endpoints.h"
#include "api/error.h"
#include "core/state.h"
#include "core/store.h"

enum job_kind {
	JOB_TRANSCRIBE,
	JOB_ORDER,
	JOB_EXPORT,
	JOB_TRANSLATION_ORDER,
	JOB_TRANSLATION_TASK,
	JOB_CONFIRM,
	JOB_DOWNLOAD,
};

enum job_step {
	JOB_STEP_UPLOAD_URL,   /* asking for a signed URL */
	JOB_STEP_UPLOADING,    /* PUT of the file (bytes_done / bytes_total) */
	JOB_STEP_CREATING,     /* the POST */
	JOB_STEP_WAITING,      /* polling the resource until a final state */
	JOB_STEP_DOWNLOADING,  /* the export's file (bytes_done / bytes_total) */
	JOB_STEP_RESOLVING,    /* the create's answer was lost: looking for what it made */
	JOB_STEP_DONE,
	JOB_STEP_FAILED,
	JOB_STEP_CANCELLED,
};

/* What callers see of a job. Ownership: the job manager's; valid until jobs_forget/jobs_free. */
struct steno_job {
	int id;
	enum job_kind kind;
	enum job_step step;
	uint64_t bytes_done, bytes_total;   /* of the upload or download (total 0: unknown) */
	char *resource_id;      /* the transcription / order / export / task id, once known */
	char *state;            /* its last state (RESOLVING: what its lookup waits for, or NULL) */
	char *file;             /* the downloaded file (export with a directory) */
	char **result_ids;      /* transcriptions produced (order outputs, translated id) */
	size_t n_result_ids;
	struct steno_error error; /* when FAILED (and CANCELLED: see jobs_cancel) */
	enum job_step ended_while; /* once over: the step it was in when it ended */
	bool found_after_loss;  /* the create's reply was lost and its item found (its own) */
	char **candidates;      /* an ambiguous lookup (error code "ambiguous"): the items that fit */
	size_t n_candidates;
	int64_t started_ms, step_ms; /* monotonic ms */
};

/* Called on every step change and on progress. Must not call jobs_free. */
typedef void (*jobs_event_fn)(void *ud, const struct steno_job *job);

struct steno_jobs;

struct jobs_config {
	struct steno_http *http;        /* required; borrowed */
	struct steno_store *store;      /* may be NULL; borrowed */
	struct steno_state *state;      /* may be NULL; borrowed (learned folders) */
	const char *organization_id;    /* for learned folders; may be NULL */
	const char *state_path;         /* the state file, for the claims of creations (the
	                                 * lookup after a lost reply); NULL: no claims */
	int64_t poll_min_ms;            /* first wait interval; 0: 2000 */
	int64_t poll_max_ms;            /* cap; 0: 60000 */
	double requests_per_second;     /* of the waits; 0: 5 */
	jobs_event_fn on_event;         /* may be NULL */
	void *ud;
};

/* malloc'd manager (NULL + err on failure). jobs_free cancels what still runs. */
struct steno_jobs *jobs_new(const struct jobs_config *cfg, struct steno_error *err);
void jobs_free(struct steno_jobs *jm);

/* Starters: return the job id (> 0), or -1 with err when the request is invalid or cannot be
 * submitted (then no job exists). Requests are copied; callers keep theirs.
 * upload_path: a local file uploaded first (its signed URL becomes tmp_url / url); NULL when
 * req->tmp_url / req->url is already a URL. wait: poll until a final state. */
int jobs_transcribe(struct steno_jobs *jm, const struct steno_transcription_create_req *req,
		    const char *upload_path, bool wait, struct steno_error *err);
int jobs_order(struct steno_jobs *jm, const struct steno_order_create_req *req,
	       const char *upload_path, bool wait, struct steno_error *err);
/* dir NULL: no download (the job ends when the export is ready). name NULL: the link's name. */
int jobs_export(struct steno_jobs *jm, const struct steno_export_create_req *req, const char *dir,
		const char *name, bool overwrite, struct steno_error *err);
int jobs_translation_order(struct steno_jobs *jm, const struct steno_translation_order_req *req,
			   bool wait, struct steno_error *err);
int jobs_translation_task(struct steno_jobs *jm, const struct steno_translation_task_req *req,
			  bool wait, struct steno_error *err);
int jobs_confirm(struct steno_jobs *jm, const char *order_id, bool wait, struct steno_error *err);
/* Downloads a ready export (one with a download_link; the struct is read, not kept) into dir
 * as name (core/download_name.h; NULL: the link's own name): NAME.part, renamed when whole;
 * never overwrites unless asked. The job's resource is the export. A link the file server
 * refuses (401, 403: signed links expire) is read again from the export (GET /exports/ID),
 * once, and the download goes on with the fresh link; a read that fails, an export no longer
 * ready, or a fresh link refused too ends the job FAILED. (The download of jobs_export does
 * the same.) */
int jobs_download(struct steno_jobs *jm, const struct steno_export *e, const char *dir,
		  const char *name, bool overwrite, struct steno_error *err);

/* Cancels a running job (its requests are cancelled; a POST already sent may still take
 * effect on the server; a partial download is removed). The job ends CANCELLED with the
 * error "download cancelled", "upload cancelled" or "cancelled while STEP" (waiting...).
 * What it made (an order, export or task) is not touched: its holder follows it on as an
 * activity (jobs_resource_kind). 0, or -1 when unknown or over. */
int jobs_cancel(struct steno_jobs *jm, int id);

/* The activity kind of what the job made or follows (order, export, translation task), when
 * its id is known; false for a transcription or before the id is known. */
bool jobs_resource_kind(const struct steno_job *j, enum store_activity_kind *kind);
/* Forgets a finished job (frees it). */
void jobs_forget(struct steno_jobs *jm, int id);

const struct steno_job *jobs_get(const struct steno_jobs *jm, int id);
size_t jobs_count(const struct steno_jobs *jm);
const struct steno_job *jobs_at(const struct steno_jobs *jm, size_t i);
/* Jobs not yet DONE, FAILED or CANCELLED. */
size_t jobs_active(const struct steno_jobs *jm);
/* The download an export job (jobs_export with a directory) is still to make: true, with its
 * directory, name (NULL: the link's) and overwrite (each out may be NULL), while the job runs
 * and has not begun downloading; false otherwise. What a quit would leave undone: the
 * browser keeps it in the state file and downloads it at the next start. */
bool jobs_download_target(const struct steno_job *j, const char **dir, const char **name,
			  bool *overwrite);
const char *jobs_step_name(enum job_step step);
/* How a job ended, in the words the activity pane and the status line use: "downloaded to
 * PATH", "download failed: MESSAGE", the error of any other failure, the words of a cancel
 * ("download cancelled", "upload cancelled", "cancelled while waiting"); "" for a job not
 * over, or done with nothing to add (its resource's state says it). The activity pane's job
 * rows and the rows of what they followed say the same. Returns buf. */
const char *jobs_end_text(const struct steno_job *j, char *buf, size_t size);

/* The loop: ms until jobs_tick has work (-1: none; waits only, requests run in the engine),
 * and the tick that issues due refreshes. */
long jobs_timeout_ms(const struct steno_jobs *jm);
void jobs_tick(struct steno_jobs *jm);

/* For commands: poll + perform + tick until no job is active or max_ms (-1: no limit) passes.
 * Returns 0 when all are over, -1 on timeout. */
int jobs_run(struct steno_jobs *jm, long max_ms);

#endif
