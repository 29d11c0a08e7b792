# A fresh connection per POST vs a reused one (docs/PERFORMANCE.md "POST connections"): built
# and run on demand by `make bench-post`, never part of make check.
EXTRA_PROGRAMS += bench/post_conn
bench_post_conn_SOURCES = %reldir%/post_conn.c
bench_post_conn_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(MHD_CFLAGS)
bench_post_conn_LDADD = $(CURL_LIBS) $(MHD_LIBS)
CLEANFILES += bench/post_conn
EXTRA_DIST += %reldir%/post_conn.sh %reldir%/sandbox_start.sh

bench-post: steno-sandbox bench/post_conn
	$(SHELL) $(srcdir)/%reldir%/post_conn.sh ./steno-sandbox bench/post_conn
.PHONY: bench-post
