# sandbox/formats: transcript content, the 12 export formats, media length.
noinst_LIBRARIES += libsandbox_formats.a
libsandbox_formats_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(LIBZIP_CFLAGS) $(SNDFILE_CFLAGS)
libsandbox_formats_a_SOURCES = \
	%reldir%/transcript.c %reldir%/transcript.h %reldir%/transcript_build.h \
	%reldir%/transcript_ops.c %reldir%/transcript_json.c %reldir%/transcript_words.c \
	%reldir%/wordlists.c %reldir%/wordlists.h \
	%reldir%/buf.c %reldir%/buf.h \
	%reldir%/export.c %reldir%/export.h %reldir%/export_internal.h \
	%reldir%/export_cues.c %reldir%/export_text.c %reldir%/export_xml.c \
	%reldir%/export_docx.c %reldir%/export_pdf.c %reldir%/export_stl.c %reldir%/export_zip.c \
	%reldir%/media.c %reldir%/media.h
