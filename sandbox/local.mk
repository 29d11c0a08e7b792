# steno-sandbox: libmicrohttpd + SQLite implementation of the whole API.
bin_PROGRAMS += steno-sandbox
steno_sandbox_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(SQLITE_CFLAGS) $(JSONC_CFLAGS) $(PTHREAD_CFLAGS)
steno_sandbox_SOURCES = %reldir%/main.c
steno_sandbox_LDADD = $(MHD_LIBS) $(SQLITE_LIBS) $(JSONC_LIBS) $(PTHREAD_LIBS) -lm
