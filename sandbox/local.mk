# steno-sandbox: libmicrohttpd + SQLite implementation of the whole API.
# formats/local.mk builds libsandbox_formats.a (export files, transcript content, media).
include %reldir%/formats/local.mk

bin_PROGRAMS += steno-sandbox
steno_sandbox_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(SQLITE_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) $(CRYPTO_CFLAGS) $(PTHREAD_CFLAGS)
steno_sandbox_SOURCES = %reldir%/main.c
steno_sandbox_LDADD = libsandbox_formats.a $(MHD_LIBS) $(SQLITE_LIBS) $(JSONC_LIBS) $(CURL_LIBS) $(CRYPTO_LIBS) \
	$(LIBZIP_LIBS) $(SNDFILE_LIBS) $(HPDF_LIBS) $(PTHREAD_LIBS) -lm
