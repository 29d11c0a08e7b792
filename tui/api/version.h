#ifndef STENO_API_VERSION_H
#define STENO_API_VERSION_H

/* The program version, as configure set it. */
const char *steno_version(void);

#endif
