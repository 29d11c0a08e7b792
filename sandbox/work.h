/* work: the asynchronous side of transcriptions. Media/document ingestion (local signed
 * uploads directly, other URLs fetched on worker threads) and scheduling of the state
 * machine once the media length is known. Restart-safe: pending ingestions are re-queued. */
#ifndef SB_WORK_H
#define SB_WORK_H

#include <stdint.h>

#include "model.h"

/* Starts the worker threads and queues every ingestion left pending by a previous run. */
int work_start(void);
void work_stop(void);
/* 1 when url is a signedUrl of this sandbox's storage (an upload). */
int work_url_is_local(const char *url);
/* Ingests transcription rid now (calling thread). */
void work_ingest(int64_t rid);
/* Queues rid for ingestion on a worker thread. */
void work_enqueue(int64_t rid);
/* Sets ingest_end/work_end/final_state once media is known and the work may start
 * (not waiting for an order confirmation). Charges credit or locks. Idempotent. */
void work_try_schedule(int64_t rid);
/* Schedules a translated transcription: done dur seconds after start. */
int work_schedule_translation(int64_t rid, double start, double dur);
/* Creates the translated transcription of src in target (same org and folder, content
 * translated on demand). initial: waits for an order confirmation (state initial); else
 * done dur seconds after start. Returns its rid or -1; its 32-hex id into id_out. */
int64_t work_translation_create(const struct tr_row *src, const char *target, const char *order_id, int initial,
				double start, double dur, char id_out[33]);
/* Seconds an auto translation task of src takes: 10 s + 1 s per 100 words, at most 120 s. */
double work_task_seconds(const struct tr_row *src);
/* Marks rid locked for lack of credit. */
int work_lock(int64_t rid, double now);

#endif
