# tui/api resource model (see local.mk): value types, json-c helpers, timestamps, the spec
# tables, one module per resource, error bodies and request builders.
libsteno_api_a_SOURCES += \
	%reldir%/spec_tables.c %reldir%/spec_tables.h \
	%reldir%/model.h \
	%reldir%/jget.c %reldir%/jget.h %reldir%/jget_bounds.c \
	%reldir%/timestamp.c %reldir%/timestamp.h \
	%reldir%/transcription.c %reldir%/transcription.h \
	%reldir%/upload.c %reldir%/upload.h \
	%reldir%/export.c %reldir%/export.h \
	%reldir%/translation.c %reldir%/translation.h \
	%reldir%/order.c %reldir%/order.h \
	%reldir%/glossary.c %reldir%/glossary.h \
	%reldir%/transcript.c %reldir%/transcript.h \
	%reldir%/error_body.c %reldir%/error_body.h \
	%reldir%/request.c %reldir%/request_validate.c %reldir%/request.h

# The spec tables and the UTF-8 checks alone (no json-c, no curl): steno-sandbox links this
# library so that client and sandbox share one definition of every language set, format and
# state, and one judgement of what is well-formed UTF-8. (utf8.c is in libsteno_api.a too.)
noinst_LIBRARIES += libsteno_spec.a
libsteno_spec_a_SOURCES = %reldir%/spec_tables.c %reldir%/spec_tables.h \
	%reldir%/utf8.c %reldir%/utf8.h
