# steno: the client. Libraries per room, linked ui -> cli -> core -> api.
include %reldir%/api/local.mk
include %reldir%/core/local.mk
include %reldir%/cli/local.mk
include %reldir%/ui/local.mk

bin_PROGRAMS += steno
steno_SOURCES = %reldir%/main.c %reldir%/keys_cmd.c %reldir%/keys_cmd.h
steno_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
steno_LDADD = libsteno_ui.a libsteno_cli.a libsteno_core.a libsteno_api.a \
	$(NCURSESW_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(INIH_LIBS) $(SQLITE_LIBS) $(PTHREAD_LIBS) -lm
