# sandbox/formats: transcript content, the 12 export formats, media length.
noinst_LIBRARIES += libsandbox_formats.a
libsandbox_formats_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(LIBZIP_CFLAGS) $(SNDFILE_CFLAGS)
libsandbox_formats_a_SOURCES = %reldir%/placeholder.c
