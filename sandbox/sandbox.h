/* sandbox: the process-wide configuration, set by main before the server starts and
 * read-only afterwards (owned by main; strings freed at exit). */
#ifndef SB_SANDBOX_H
#define SB_SANDBOX_H

#include <stdint.h>

#define SB_MEDIA_MAX (256L * 1024 * 1024) /* PUT to a signedUrl and fetched media */
#define SB_JSON_MAX (1L * 1024 * 1024)    /* request bodies of the JSON API */
#define SB_DOC_MAX (4L * 1024 * 1024)     /* alignment documents */
#define SB_SIGNED_TTL (3600.0)            /* validity of signed URLs, sandbox seconds */

struct sb_config {
	char bind[64];
	int port;
	char *data_dir;
	int created_dir;      /* 1: we made data_dir and remove it on exit */
	long seed_demo;       /* -1: not requested */
	double clock_speed;
	int page_size;
	double rate, burst;   /* rate 0: no limit */
	int legacy;           /* --api-form legacy */
	char *faults;         /* initial fault spec or NULL */
	int allow_remote;
	int asr;              /* --asr on: English media is transcribed by speech recognition */
	int asr_threads;      /* --asr-threads: decoder threads */
	char origin[160];     /* http://127.0.0.1:PORT, filled once the port is known */
	char secret[65];      /* HMAC key of signed URLs, persisted in the data dir */
};

extern struct sb_config sb_cfg;

#endif
