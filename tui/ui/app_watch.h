#ifndef STENO_UI_APP_WATCH_H
#define STENO_UI_APP_WATCH_H

#include "ui/app_access.h"

/* app_watch.c: watched items and jobs, the right side */
void app_on_job(void *ud, const struct steno_job *job);   /* the jobs' event callback */
void app_show_side(struct app *app, bool activity);   /* activity or details on the right */
/* The frame's before_quit (ud: the app): with jobs not done, the quit question (what would
 * be lost, dialog_quit_ops) opened and its result; 0 when nothing runs. */
unsigned app_before_quit(void *ud);
/* Downloads asked for before a restart (an export job's, state_watch_download) start once
 * their export is ready: one per call; returns whether any still waits. */
bool app_resume_downloads(struct app *app);

#endif
