#ifndef STENO_CORE_SECRET_H
#define STENO_CORE_SECRET_H

/* The API key: read from a private file or a command, checked, wiped, and kept out of every
 * message. Nothing here ever prints or logs a key. */

#include <stdbool.h>
#include <sys/types.h>

#include "api/error.h"

#define SECRET_KEY_MAX 1024           /* longer keys are refused */
#define SECRET_COMMAND_TIMEOUT_MS 10000

/* Reads the first line of `path` as the key, as ssh treats private keys: a file that group or
 * others may access in any way, or that another user owns, is refused with a message naming
 * the file, its mode and the chmod to run. *key is malloc'd; free it with secret_free. */
int secret_read_key_file(const char *path, char **key, struct steno_error *err);

/* Runs `command` with /bin/sh -c (stdin /dev/null, its own process group), waits at most
 * timeout_ms (<= 0: SECRET_COMMAND_TIMEOUT_MS) and takes the first line of its stdout as the
 * key. Non-zero exit, a signal, a timeout (the group is killed) or an empty line is an error
 * that quotes the command's stderr, never its stdout. *key: free with secret_free. */
int secret_run_key_command(const char *command, int timeout_ms, char **key,
			   struct steno_error *err);

/* A key must be non-empty, at most SECRET_KEY_MAX bytes, printable ASCII without spaces
 * (it goes into an HTTP header). `origin` names where it came from in the message. */
int secret_check_key(const char *key, const char *origin, struct steno_error *err);

/* True when the file's mode lets nobody but its owner in (mode & 077 == 0). *mode gets the
 * permission bits. False when the file cannot be stat'ed. */
bool secret_file_is_private(const char *path, mode_t *mode);

/* A malloc'd copy of `text` in which every occurrence of `key` is replaced by "[redacted]".
 * A NULL or empty key copies the text. NULL on no memory. */
char *secret_redact(const char *text, const char *key);

/* Same, in place into a fixed buffer (for struct steno_error messages); truncates. */
void secret_redact_buf(char *buf, size_t size, const char *key);

/* Called first thing by main: keeps a private copy of STENO_API_KEY and removes it from the
 * environment (wiping the original string), so that no child process (opener, api_key_command,
 * sandbox) inherits the key. */
void secret_env_take(void);
/* The taken copy, else the variable as the environment has it now (for tests and libraries
 * used without main); NULL when neither. */
const char *secret_env_key(void);
/* Wipes and frees the taken copy (at exit). */
void secret_env_forget(void);
/* Overwrites the string with zeros, then frees it. NULL is fine. */
void secret_free(char *key);

#endif
