/* Helpers shared by the test_formats_* unit tests: temp dirs, files, tools. */
#ifndef TEST_FORMATS_UTIL_H
#define TEST_FORMATS_UTIL_H

#include <stddef.h>

/* A fresh temp dir (mkdtemp) for this test process; removed by tf_cleanup. */
const char *tf_dir(void);
void tf_cleanup(void);
/* Write data to tf_dir()/name; returns the path (static buffer per call slot). */
char *tf_write(const char *name, const void *data, size_t len);
/* 1 when the program is on PATH. */
int tf_have(const char *prog);
/* Run a shell command (arguments already quoted), return its exit status, and
 * when out is not NULL its stdout (malloc'ed, NUL-terminated; caller frees). */
int tf_run(const char *cmd, char **out);
/* 1 when xmllint --noout accepts the bytes as well-formed XML. */
int tf_xml_ok(const char *name, const void *data, size_t len);

struct sb_transcript;
struct sb_export_options;
/* sb_export_render that must succeed; returns the malloc'ed bytes (NUL-terminated). */
unsigned char *tf_render(const char *format, const struct sb_transcript *t, const char *name,
                         const struct sb_export_options *opt, size_t *len);
/* A generated transcript (seed, seconds, language); free with sb_transcript_free. */
void tf_generate(struct sb_transcript *t, unsigned seed, double seconds, const char *language);
/* A small fixed transcript whose texts need escaping: <b>, &, quotes, a control
 * byte, non-ASCII (é, ß) and CJK; 2 speakers, a comment and a highlight. */
void tf_tricky(struct sb_transcript *t);

#endif
