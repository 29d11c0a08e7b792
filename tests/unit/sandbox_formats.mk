# unit tests: sandbox_formats (transcript content, export formats, media length)
TF_SOURCES = %reldir%/test_formats_util.c %reldir%/test_formats_util.h tui/api/spec_tables.c
TF_CFLAGS = -I$(top_srcdir)/sandbox $(TEST_CFLAGS) $(LIBZIP_CFLAGS) $(SNDFILE_CFLAGS)
TF_LIBS = libsandbox_formats.a $(TEST_LIBS) $(JSONC_LIBS) $(LIBZIP_LIBS) $(SNDFILE_LIBS) $(HPDF_LIBS) -lm

check_PROGRAMS += tests/unit/test_formats_transcript tests/unit/test_formats_export tests/unit/test_formats_media
TESTS += tests/unit/test_formats_transcript tests/unit/test_formats_export tests/unit/test_formats_media

tests_unit_test_formats_transcript_SOURCES = %reldir%/test_formats_transcript.c $(TF_SOURCES)
tests_unit_test_formats_transcript_CFLAGS = $(TF_CFLAGS)
tests_unit_test_formats_transcript_LDADD = $(TF_LIBS)

tests_unit_test_formats_export_SOURCES = %reldir%/test_formats_export.c %reldir%/test_formats_export2.c $(TF_SOURCES)
tests_unit_test_formats_export_CFLAGS = $(TF_CFLAGS)
tests_unit_test_formats_export_LDADD = $(TF_LIBS)

tests_unit_test_formats_media_SOURCES = %reldir%/test_formats_media.c $(TF_SOURCES)
tests_unit_test_formats_media_CFLAGS = $(TF_CFLAGS)
tests_unit_test_formats_media_LDADD = $(TF_LIBS)
