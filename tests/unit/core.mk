# unit tests: core (configuration, secrets, paths, state file, store, scheduler)
CORE_TEST_LIBS = libsteno_core.a libsteno_api.a $(CURL_LIBS) $(INIH_LIBS) $(JSONC_LIBS) $(TEST_LIBS) -lm
CORE_TEST_CFLAGS = $(TEST_CFLAGS) $(INIH_CFLAGS)

check_PROGRAMS += tests/unit/test_core_config tests/unit/test_core_secret \
	tests/unit/test_core_state tests/unit/test_core_scheduler tests/unit/test_core_store
TESTS += tests/unit/test_core_config tests/unit/test_core_secret \
	tests/unit/test_core_state tests/unit/test_core_scheduler tests/unit/test_core_store

tests_unit_test_core_config_SOURCES = %reldir%/test_core_config.c %reldir%/core_helpers.h
tests_unit_test_core_config_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_config_LDADD = $(CORE_TEST_LIBS)

tests_unit_test_core_secret_SOURCES = %reldir%/test_core_secret.c %reldir%/core_helpers.h
tests_unit_test_core_secret_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_secret_LDADD = $(CORE_TEST_LIBS)

tests_unit_test_core_state_SOURCES = %reldir%/test_core_state.c %reldir%/core_helpers.h
tests_unit_test_core_state_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_state_LDADD = $(CORE_TEST_LIBS)

tests_unit_test_core_scheduler_SOURCES = %reldir%/test_core_scheduler.c
tests_unit_test_core_scheduler_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_scheduler_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_download
TESTS += tests/unit/test_core_download
tests_unit_test_core_download_SOURCES = %reldir%/test_core_download.c
tests_unit_test_core_download_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_download_LDADD = $(CORE_TEST_LIBS)

tests_unit_test_core_store_SOURCES = %reldir%/test_core_store.c %reldir%/store_select.h
tests_unit_test_core_store_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_store_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_store_select
TESTS += tests/unit/test_core_store_select
tests_unit_test_core_store_select_SOURCES = %reldir%/test_core_store_select.c %reldir%/store_select.h
tests_unit_test_core_store_select_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_store_select_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_store_select_sql
TESTS += tests/unit/test_core_store_select_sql
tests_unit_test_core_store_select_sql_SOURCES = %reldir%/test_core_store_select.c %reldir%/store_select.h \
	%reldir%/core_helpers.h %reldir%/store_db_helpers.h
tests_unit_test_core_store_select_sql_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS) -DSTORE_SELECT_SQL
tests_unit_test_core_store_select_sql_LDADD = $(CORE_TEST_LIBS)

# jobs and the sync engine against a real steno-sandbox (the integration tests' fixture)
check_PROGRAMS += tests/unit/test_core_jobs tests/unit/test_core_sync
TESTS += tests/unit/test_core_jobs tests/unit/test_core_sync
tests_unit_test_core_sync_SOURCES = %reldir%/test_core_sync.c \
	tests/integration/sandbox_fixture.c tests/integration/sandbox_fixture.h
tests_unit_test_core_sync_CFLAGS = $(CORE_TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
tests_unit_test_core_sync_LDADD = libsteno_core.a libsteno_api.a $(INIH_LIBS) $(CURL_LIBS) \
	$(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm
tests_unit_test_core_jobs_SOURCES = %reldir%/test_core_jobs.c \
	tests/integration/sandbox_fixture.c tests/integration/sandbox_fixture.h
tests_unit_test_core_jobs_CFLAGS = $(CORE_TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
tests_unit_test_core_jobs_LDADD = libsteno_core.a libsteno_api.a $(INIH_LIBS) $(CURL_LIBS) \
	$(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm
check_PROGRAMS += tests/unit/test_core_jobs_link
TESTS += tests/unit/test_core_jobs_link
tests_unit_test_core_jobs_link_SOURCES = %reldir%/test_core_jobs_link.c \
	tests/integration/engine_server.c tests/integration/engine_server.h
tests_unit_test_core_jobs_link_CFLAGS = $(CORE_TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
tests_unit_test_core_jobs_link_LDADD = libsteno_core.a libsteno_api.a $(INIH_LIBS) $(CURL_LIBS) \
	$(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm

check_PROGRAMS += tests/unit/test_core_state_merge
TESTS += tests/unit/test_core_state_merge
tests_unit_test_core_state_merge_SOURCES = %reldir%/test_core_state_merge.c %reldir%/core_helpers.h \
	%reldir%/state_fixture.h
tests_unit_test_core_state_merge_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_state_merge_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_choices
TESTS += tests/unit/test_core_choices
tests_unit_test_core_choices_SOURCES = %reldir%/test_core_choices.c %reldir%/core_helpers.h \
	%reldir%/state_fixture.h
tests_unit_test_core_choices_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_choices_LDADD = $(CORE_TEST_LIBS)

# language names (generated table) and UTF-8 case folding: pure, no files
check_PROGRAMS += tests/unit/test_core_lang_names
TESTS += tests/unit/test_core_lang_names
tests_unit_test_core_lang_names_SOURCES = %reldir%/test_core_lang_names.c
tests_unit_test_core_lang_names_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_lang_names_LDADD = $(CORE_TEST_LIBS)

# the list's pure helpers: query language, natural sort, column widths
check_PROGRAMS += tests/unit/test_core_query
TESTS += tests/unit/test_core_query
tests_unit_test_core_query_SOURCES = %reldir%/test_core_query.c
tests_unit_test_core_query_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_query_LDADD = $(CORE_TEST_LIBS)

# the list's column names and writing a setting back into the config file
check_PROGRAMS += tests/unit/test_core_columns
TESTS += tests/unit/test_core_columns
tests_unit_test_core_columns_SOURCES = %reldir%/test_core_columns.c %reldir%/core_helpers.h
tests_unit_test_core_columns_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_columns_LDADD = $(CORE_TEST_LIBS)

# transcript content and its full-text index (core/content_db.c, content_search.c)
check_PROGRAMS += tests/unit/test_core_content
TESTS += tests/unit/test_core_content
tests_unit_test_core_content_SOURCES = %reldir%/test_core_content.c %reldir%/core_helpers.h \
	%reldir%/content_fixture.c %reldir%/content_fixture.h
tests_unit_test_core_content_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_content_LDADD = $(CORE_TEST_LIBS)
check_PROGRAMS += tests/unit/test_core_content_search
TESTS += tests/unit/test_core_content_search
tests_unit_test_core_content_search_SOURCES = %reldir%/test_core_content_search.c \
	%reldir%/core_helpers.h %reldir%/content_fixture.c %reldir%/content_fixture.h
tests_unit_test_core_content_search_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_content_search_LDADD = $(CORE_TEST_LIBS)
check_PROGRAMS += tests/unit/test_core_content_status
TESTS += tests/unit/test_core_content_status
tests_unit_test_core_content_status_SOURCES = %reldir%/test_core_content_status.c \
	%reldir%/core_helpers.h %reldir%/content_fixture.c %reldir%/content_fixture.h
tests_unit_test_core_content_status_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_content_status_LDADD = $(CORE_TEST_LIBS)
check_PROGRAMS += tests/unit/test_core_content_frequent
TESTS += tests/unit/test_core_content_frequent
tests_unit_test_core_content_frequent_SOURCES = %reldir%/test_core_content_frequent.c \
	%reldir%/core_helpers.h %reldir%/content_fixture.c %reldir%/content_fixture.h
tests_unit_test_core_content_frequent_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_content_frequent_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_localdb
TESTS += tests/unit/test_core_localdb
tests_unit_test_core_localdb_SOURCES = %reldir%/test_core_localdb.c %reldir%/core_helpers.h
tests_unit_test_core_localdb_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_localdb_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_store_db
TESTS += tests/unit/test_core_store_db
tests_unit_test_core_store_db_SOURCES = %reldir%/test_core_store_db.c %reldir%/core_helpers.h %reldir%/store_db_helpers.h
tests_unit_test_core_store_db_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_store_db_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_store_window
TESTS += tests/unit/test_core_store_window
tests_unit_test_core_store_window_SOURCES = %reldir%/test_core_store_window.c %reldir%/core_helpers.h %reldir%/store_db_helpers.h
tests_unit_test_core_store_window_CFLAGS = $(CORE_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_unit_test_core_store_window_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_core_claims
TESTS += tests/unit/test_core_claims
tests_unit_test_core_claims_SOURCES = %reldir%/test_core_claims.c %reldir%/core_helpers.h \
	%reldir%/state_fixture.h
tests_unit_test_core_claims_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_core_claims_LDADD = $(CORE_TEST_LIBS)
