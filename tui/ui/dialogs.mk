# tui/ui dialogs (issue 6): the form widget, one dialog per file, the transcript preview,
# OSC 52 copy, and the core helpers the dialogs need beside core/jobs.
libsteno_ui_a_SOURCES += \
	%reldir%/form.c %reldir%/form_key.c %reldir%/form_pick.c %reldir%/form.h \
	%reldir%/form_draw.c %reldir%/form_draw.h \
	%reldir%/dialog_common.c %reldir%/dialog_common.h
libsteno_core_a_SOURCES += tui/core/jobs_extra.c tui/core/jobs_extra.h
libsteno_ui_a_SOURCES += %reldir%/dialog_base.c %reldir%/dialog_base.h
libsteno_ui_a_SOURCES += %reldir%/dialog_transcribe.c %reldir%/dialog_transcribe.h
libsteno_ui_a_SOURCES += %reldir%/dialog_confirm.c %reldir%/dialog_confirm.h
libsteno_ui_a_SOURCES += %reldir%/dialog_order.c %reldir%/dialog_order.h
libsteno_ui_a_SOURCES += %reldir%/dialog_translate.c %reldir%/dialog_translate.h
libsteno_ui_a_SOURCES += %reldir%/dialog_export.c %reldir%/dialog_export.h
libsteno_ui_a_SOURCES += %reldir%/dialog_delete.c %reldir%/dialog_delete.h
libsteno_ui_a_SOURCES += %reldir%/dialog_columns.c %reldir%/dialog_columns.h
libsteno_ui_a_SOURCES += %reldir%/clipboard.c %reldir%/clipboard.h \
	%reldir%/dialog_popup.c %reldir%/dialog_popup.h
libsteno_ui_a_SOURCES += %reldir%/pane_preview.c %reldir%/pane_preview.h
libsteno_ui_a_SOURCES += %reldir%/dialogs.c %reldir%/dialogs.h
libsteno_ui_a_SOURCES += %reldir%/org_lists.c %reldir%/org_lists.h
