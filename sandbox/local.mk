# steno-sandbox: libmicrohttpd + SQLite implementation of the whole API.
# formats/local.mk builds libsandbox_formats.a (export files, transcript content, media).
include %reldir%/formats/local.mk

bin_PROGRAMS += steno-sandbox
steno_sandbox_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(SQLITE_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) $(CRYPTO_CFLAGS) $(PTHREAD_CFLAGS)
steno_sandbox_SOURCES = \
	%reldir%/main.c %reldir%/sandbox.h \
	%reldir%/server.c %reldir%/server.h %reldir%/http.h \
	%reldir%/routes.h %reldir%/routes_table.c %reldir%/routes_util.c %reldir%/routes_util.h \
	%reldir%/routes_uploads.c %reldir%/routes_transcriptions.c %reldir%/routes_exports.c \
	%reldir%/routes_tasks.c %reldir%/routes_orders.c %reldir%/routes_lists.c %reldir%/routes_admin.c \
	%reldir%/auth.c %reldir%/auth.h %reldir%/db.c %reldir%/db.h %reldir%/clock.c %reldir%/clock.h \
	%reldir%/ratelimit.c %reldir%/ratelimit.h %reldir%/faults.c %reldir%/faults.h \
	%reldir%/signed_url.c %reldir%/signed_url.h %reldir%/fetch.c %reldir%/fetch.h \
	%reldir%/webhook.c %reldir%/webhook.h %reldir%/seed.c %reldir%/seed.h \
	%reldir%/work.c %reldir%/work.h %reldir%/content.c %reldir%/content.h \
	%reldir%/folders.c %reldir%/folders.h %reldir%/model.h %reldir%/model_tr.c \
	%reldir%/model_order.c %reldir%/model_order.h %reldir%/util.c %reldir%/util.h \
	%reldir%/asr.c %reldir%/asr.h
steno_sandbox_SOURCES += %reldir%/counters.c %reldir%/counters.h %reldir%/conn_guard.c %reldir%/conn_guard.h \
	%reldir%/stopping.c %reldir%/stopping.h %reldir%/req_check.c %reldir%/req_check.h
steno_sandbox_LDADD = libsandbox_formats.a libsteno_spec.a $(MHD_LIBS) $(SQLITE_LIBS) $(JSONC_LIBS) $(CURL_LIBS) $(CRYPTO_LIBS) \
	$(LIBZIP_LIBS) $(SNDFILE_LIBS) $(HPDF_LIBS) $(PTHREAD_LIBS) -lm
# Speech recognition (configure: HAVE_ASR): pocketsphinx decoders, libsndfile + libsoxr media.
if HAVE_ASR
steno_sandbox_SOURCES += %reldir%/asr_decode.c %reldir%/asr_decode.h %reldir%/asr_audio.c %reldir%/asr_audio.h
steno_sandbox_CFLAGS += $(POCKETSPHINX_CFLAGS) $(SOXR_CFLAGS) $(SNDFILE_CFLAGS)
steno_sandbox_LDADD += $(POCKETSPHINX_LIBS) $(SOXR_LIBS)
else
EXTRA_DIST += %reldir%/asr_decode.c %reldir%/asr_decode.h %reldir%/asr_audio.c %reldir%/asr_audio.h
endif
dist_man_MANS += docs/steno-sandbox.1
