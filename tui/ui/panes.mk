# tui/ui panes and the application (issue 5): ui_main, the loop's engine wait hook,
# organizations, transcriptions, details, activity and log panes.
libsteno_ui_a_SOURCES += \
	%reldir%/app.c %reldir%/app.h %reldir%/app_internal.h \
	%reldir%/app_access.c %reldir%/app_access.h %reldir%/app_watch.c \
	%reldir%/app_data.c %reldir%/app_draw.c %reldir%/app_input.c \
	%reldir%/app_list.c %reldir%/app_places.c \
	%reldir%/app_content.c %reldir%/app_content.h \
	%reldir%/pane_reader.c %reldir%/pane_reader.h \
	%reldir%/pane_search.c %reldir%/pane_search.h \
	%reldir%/app_api.h %reldir%/ui_options.h %reldir%/app_data.h %reldir%/app_draw.h \
	%reldir%/app_input.h %reldir%/app_list.h %reldir%/app_places.h %reldir%/app_watch.h \
	%reldir%/pane_orgs.c %reldir%/pane_orgs.h \
	%reldir%/pane_list.c %reldir%/pane_list.h %reldir%/list_sort.c %reldir%/list_sort.h \
	%reldir%/pane_details.c %reldir%/pane_details.h \
	%reldir%/pane_describe.c %reldir%/pane_describe.h \
	%reldir%/pane_activity.c %reldir%/pane_activity.h \
	%reldir%/pane_log.c %reldir%/pane_log.h \
	%reldir%/wait.c %reldir%/wait.h
