# tui/api: the service in C. No curses here.
# model.mk: resources, JSON, request builders, languages. engine.mk: HTTP engine, endpoints.
noinst_LIBRARIES += libsteno_api.a
libsteno_api_a_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
libsteno_api_a_SOURCES = \
	%reldir%/version.c %reldir%/version.h \
	%reldir%/error.c %reldir%/error.h
include %reldir%/model.mk
include %reldir%/engine.mk
