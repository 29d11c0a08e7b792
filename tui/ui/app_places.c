/* The organizations pane's entries: organizations of the profile and of the key (GET
 * /organizations), their configured folders, and the folders learned from orders and
 * creations (the state file). */
#include "config.h"

#include "ui/app_places.h"
#include "ui/app_access.h"
#include "ui/app_list.h"
#include "ui/app_data.h"
#include "ui/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_places_free(struct app *app)
{
	for (size_t i = 0; i < app->n_places; i++) {
		free(app->places[i].label);
		free(app->places[i].org_id);
		free(app->places[i].folder_id);
	}
	free(app->places);
	app->places = NULL;
	app->n_places = 0;
}

/* The index of the place of org (and folder, NULL: the organization itself), or -1. */
static long place_find(const struct app *app, const char *org, const char *folder)
{
	for (size_t i = 0; i < app->n_places; i++) {
		const struct app_place *p = &app->places[i];
		if (!strcmp(p->org_id, org) && ((!folder && !p->folder_id) ||
		    (folder && p->folder_id && !strcmp(folder, p->folder_id))))
			return (long)i;
	}
	return -1;
}

static bool place_known(const struct app *app, const char *org, const char *folder)
{
	return place_find(app, org, folder) >= 0;
}

static int place_add(struct app *app, const char *label, const char *org, const char *folder)
{
	if (!org || !*org || place_known(app, org, folder))
		return 0;
	struct app_place *n = realloc(app->places, (app->n_places + 1) * sizeof *n);
	if (!n)
		return -1;
	app->places = n;
	struct app_place *p = &n[app->n_places];
	char buf[256];
	snprintf(buf, sizeof buf, "%s%s", folder ? "  " : "", label);
	p->label = strdup(buf);
	p->org_id = strdup(org);
	p->folder_id = folder ? strdup(folder) : NULL;
	p->is_org = !folder;
	if (!p->label || !p->org_id || (folder && !p->folder_id)) {
		free(p->label);
		free(p->org_id);
		free(p->folder_id);
		return -1;
	}
	app->n_places++;
	return 0;
}

static const struct config_profile *app_profile(struct app *app)
{
	return app->opts.profile ? config_profile_find(app->config, app->opts.profile) : NULL;
}

/* The folders of one organization: configured ones, then learned ones. */
static void places_add_folders(struct app *app, const struct config_profile *prof, const char *org)
{
	char label[160];

	for (size_t i = 0; prof && i < prof->n_folders; i++) {
		const struct config_folder *f = &prof->folders[i];
		const char *o = config_org_id(prof, f->org);
		if (o && !strcmp(o, org) && f->folder_id)
			place_add(app, f->name, org, f->folder_id);
	}
	size_t *idx = NULL;
	long n = state_folders_of(&app->state, org, &idx);
	for (long i = 0; i < n; i++) {
		const struct state_folder *f = &app->state.folders[idx[i]];
		if (!f->folder_id)
			continue;
		snprintf(label, sizeof label, "%s", f->path ? f->path : f->folder_id);
		place_add(app, label, org, f->folder_id);
	}
	free(idx);
}

static int replace(char **dst, const char *src)
{
	char *c = src ? strdup(src) : NULL;

	if (src && !c)
		return -1;
	free(*dst);
	*dst = c;
	return 0;
}

/* An organization known by its id alone (--org, STENO_ORG_ID) takes the server's name; a
 * name the user gave (org.NAME) stays. */
static int place_name_org(struct app *app, size_t k, const char *label)
{
	struct app_place *p = &app->places[k];

	if (strcmp(p->label, p->org_id) || !strcmp(label, p->org_id))
		return 0;
	if (replace(&p->label, label) < 0)
		return -1;
	if (app->org_id && !strcmp(app->org_id, p->org_id)) {
		text_copy(app->ses.status.org, sizeof app->ses.status.org, label);
		pane_dirty(app->ses.status_pane);
	}
	return 0;
}

/* One organization found for the key: a new place with its folders, or the name of a known
 * one. */
static int places_add_found(struct app *app, const struct app_org_found *o)
{
	if (!o->id || !o->name)   /* out of memory when it was found */
		return 0;
	long k = place_find(app, o->id, NULL);
	if (k >= 0)
		return place_name_org(app, (size_t)k, o->name);
	int rc = place_add(app, o->name, o->id, NULL);
	if (rc == 0)
		places_add_folders(app, app_profile(app), o->id);
	return rc;
}

int app_places_build(struct app *app)
{
	const struct config_profile *prof = app_profile(app);
	const char *def = app->opts.org_id;

	app_places_free(app);
	if (def) {
		const char *name = def;
		for (size_t i = 0; prof && i < prof->n_orgs; i++)
			if (!strcmp(prof->orgs[i].id, def))
				name = prof->orgs[i].name;
		place_add(app, name, def, NULL);
		places_add_folders(app, prof, def);
	}
	for (size_t i = 0; prof && i < prof->n_orgs; i++) {
		if (place_known(app, prof->orgs[i].id, NULL))
			continue;
		place_add(app, prof->orgs[i].name, prof->orgs[i].id, NULL);
		places_add_folders(app, prof, prof->orgs[i].id);
	}
	for (size_t i = 0; i < app->n_orgs_found; i++)
		if (places_add_found(app, &app->orgs_found[i]) != 0)
			return -1;
	return 0;
}

static void found_free(struct app_org_found *found, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(found[i].id);
		free(found[i].name);
	}
	free(found);
}

int app_places_found(struct app *app, struct app_org_found *found, size_t n)
{
	found_free(app->orgs_found, app->n_orgs_found);
	app->orgs_found = found;
	app->n_orgs_found = n;
	return app_places_build(app);
}

void app_places_free_all(struct app *app)
{
	app_places_free(app);
	found_free(app->orgs_found, app->n_orgs_found);
	app->orgs_found = NULL;
	app->n_orgs_found = 0;
}

int app_select_place(struct app *app, size_t i)
{
	if (i >= app->n_places)
		return -1;
	const struct app_place *p = &app->places[i];
	if (app->org_id && !strcmp(app->org_id, p->org_id) &&
	    ((!p->folder_id && !app->folder_id) ||
	     (p->folder_id && app->folder_id && !strcmp(p->folder_id, app->folder_id))))
		return 0;
	if (replace(&app->org_id, p->org_id) < 0 || replace(&app->folder_id, p->folder_id) < 0)
		return -1;
	struct status_info *s = &app->ses.status;
	const char *label = p->label;
	while (*label == ' ')
		label++;
	if (p->folder_id) {
		for (size_t k = i; k-- > 0;)
			if (app->places[k].is_org) {
				snprintf(s->org, sizeof s->org, "%s", app->places[k].label);
				break;
			}
		snprintf(s->folder, sizeof s->folder, "%s", label);
	} else {
		snprintf(s->org, sizeof s->org, "%s", label);
		s->folder[0] = '\0';
	}
	pane_dirty(app->ses.status_pane);
	app_marks_free(app);
	app->list.stale = true;
	app->list.load_all = false;
	app_set_selected(app, NULL);
	struct store_view *v = app_view(app, false);
	if (!v || !v->pages)
		app_load_view(app, true);
	pane_dirty(app->tlist);
	pane_dirty(app->orgs);
	return 0;
}
