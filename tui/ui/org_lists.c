/* `:glossaries` and `:style-guides`: the organization's lists, read when asked and shown one
 * a line in a popup (not only offered in the order dialog's pickers). */
#include "config.h"

#include "ui/org_lists.h"
#include "ui/app_access.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/jobs_extra.h"
#include "ui/dialog_popup.h"

static void org_list_show(struct app *app, const char *title, char *text)
{
	struct dialog_popup_arg a = { title, text ? text : "out of memory" };
	struct pane *p = pane_new(&dialog_popup_ops, &app->ses.frame.ctx, &a);

	free(text);
	if (p)
		frame_open_overlay_fit(&app->ses.frame, p, dialog_popup_fit);
}

static const char *yes(const struct steno_bool *b, const char *word)
{
	return steno_known(b->st) && b->v ? word : "";
}

static void on_glossaries(void *ud, struct steno_glossary_list *res, const struct steno_error *err)
{
	struct app *app = ud;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	app_status(app, "%s", "");   /* the list or its error ends "reading the ..." */
	if (err || !(out = open_memstream(&buf, &len))) {
		if (err)
			app_error(app, err);
		return;
	}
	if (!res->n)
		fputs("no glossary in this organization", out);
	for (size_t i = 0; i < res->n; i++) {
		const struct steno_glossary *g = &res->items[i];
		fprintf(out, "%s%lld  %s  %s ->", i ? "\n" : "", (long long)g->id.v,
			g->name ? g->name : "?", g->source_language ? g->source_language : "?");
		for (size_t k = 0; k < g->target_languages.n; k++)
			fprintf(out, "%s %s", k ? "," : "", g->target_languages.v[k]);
		fputs(yes(&g->organization_default, "  (default)"), out);
	}
	if (fclose(out) != 0) {
		free(buf);
		buf = NULL;
	}
	org_list_show(app, "Glossaries", buf);
}

static void on_style_guides(void *ud, struct steno_style_guide_list *res,
			    const struct steno_error *err)
{
	struct app *app = ud;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	app_status(app, "%s", "");   /* the list or its error ends "reading the ..." */
	if (err || !(out = open_memstream(&buf, &len))) {
		if (err)
			app_error(app, err);
		return;
	}
	if (!res->n)
		fputs("no style guide in this organization", out);
	for (size_t i = 0; i < res->n; i++) {
		const struct steno_style_guide *g = &res->items[i];
		fprintf(out, "%s%lld  %s  %s%s%s%s%s", i ? "\n" : "", (long long)g->id.v,
			g->name ? g->name : "?", g->operation ? g->operation : "",
			yes(&g->verbatim, ", verbatim"), yes(&g->fix_grammar, ", fixes grammar"),
			yes(&g->sdh, ", SDH"), yes(&g->organization_default, "  (default)"));
	}
	if (fclose(out) != 0) {
		free(buf);
		buf = NULL;
	}
	org_list_show(app, "Style guides", buf);
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
