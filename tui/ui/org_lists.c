/* `:glossaries` and `:style-guides`: the organization's lists, read when asked and shown one
 * a line in a popup (not only offered in the order dialog's pickers). */
#include "config.h"

#include "ui/org_lists.h"
#include "ui/app_access.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/jobs_extra.h"
#include "ui/dialog_popup.h"

static const char *yes(const struct steno_bool *b, const char *word)
{
	return steno_known(b->st) && b->v ? word : "";
}

/* Writes one line of a list (item `i` of `items`), without its newline. */
typedef void org_line_fn(FILE *out, const void *items, size_t i);

/* Shows a list read from the server in a popup titled `title`: one line per item, `none` when
 * it is empty, the error instead when the read failed. */
static void org_list_show(struct app *app, const struct steno_error *err, const char *title,
			  const char *none, const void *items, size_t n, org_line_fn *line)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	app_status(app, "%s", "");   /* the list or its error ends "reading the ..." */
	if (err || !(out = open_memstream(&buf, &len))) {
		if (err)
			app_error(app, err);
		return;
	}
	if (!n)
		fputs(none, out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "\n" : "", out);
		line(out, items, i);
	}
	if (fclose(out) != 0) {
		free(buf);
		buf = NULL;
	}

	struct dialog_popup_arg a = { title, buf ? buf : "out of memory" };
	struct pane *p = pane_new(&dialog_popup_ops, &app->ses.frame.ctx, &a);

	free(buf);
	if (p)
		frame_open_overlay_fit(&app->ses.frame, p, dialog_popup_fit);
}

static void glossary_line(FILE *out, const void *items, size_t i)
{
	const struct steno_glossary *g = (const struct steno_glossary *)items + i;

	fprintf(out, "%lld  %s  %s ->", (long long)g->id.v, g->name ? g->name : "?",
		g->source_language ? g->source_language : "?");
	for (size_t k = 0; k < g->target_languages.n; k++)
		fprintf(out, "%s %s", k ? "," : "", g->target_languages.v[k]);
	fputs(yes(&g->organization_default, "  (default)"), out);
}

static void on_glossaries(void *ud, struct steno_glossary_list *res, const struct steno_error *err)
{
	org_list_show(ud, err, "Glossaries", "no glossary in this organization",
		      err ? NULL : res->items, err ? 0 : res->n, glossary_line);
}

static void style_guide_line(FILE *out, const void *items, size_t i)
{
	const struct steno_style_guide *g = (const struct steno_style_guide *)items + i;

	fprintf(out, "%lld  %s  %s%s%s%s%s", (long long)g->id.v, g->name ? g->name : "?",
		g->operation ? g->operation : "", yes(&g->verbatim, ", verbatim"),
		yes(&g->fix_grammar, ", fixes grammar"), yes(&g->sdh, ", SDH"),
		yes(&g->organization_default, "  (default)"));
}

static void on_style_guides(void *ud, struct steno_style_guide_list *res,
			    const struct steno_error *err)
{
	org_list_show(ud, err, "Style guides", "no style guide in this organization",
		      err ? NULL : res->items, err ? 0 : res->n, style_guide_line);
}

void app_show_org_lists(struct app *app, bool style_guides)
{
	struct steno_error err;
	const char *org = app_org_id(app);
	int rc;

	steno_error_clear(&err);
	if (!org) {
		app_status(app, "choose an organization first");
		return;
	}
	rc = style_guides ? jobs_extra_style_guides(app->http, org, on_style_guides, app, &err) :
		jobs_extra_glossaries(app->http, org, on_glossaries, app, &err);
	if (rc < 0)
		app_error(app, &err);
	else
		app_status(app, "reading the %s...", style_guides ? "style guides" : "glossaries");
}
