# tui/api HTTP engine and endpoints (see local.mk).
libsteno_api_a_SOURCES += \
	%reldir%/url.c %reldir%/url.h %reldir%/utf8.c %reldir%/utf8.h \
	%reldir%/paging.c %reldir%/paging.h \
	%reldir%/retry.c %reldir%/retry.h \
	%reldir%/ratelimit.c %reldir%/ratelimit.h \
	%reldir%/trace.c %reldir%/trace.h \
	%reldir%/http.c %reldir%/http.h %reldir%/http_internal.h \
	%reldir%/http_easy.c \
	%reldir%/http_proxy.c \
	%reldir%/transfer.c %reldir%/transfer.h
libsteno_api_a_SOURCES += \
	%reldir%/endpoints.c %reldir%/endpoints.h \
	%reldir%/endpoints_call.c %reldir%/endpoints_internal.h
