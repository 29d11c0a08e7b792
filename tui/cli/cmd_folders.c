/* `steno folders`: the folders steno has learned (the API lists none), per organization of
 * the account's server, from the state file, with the config's folder.NAME that names one. */
#include "config.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"

static const char folders_usage[] =
	"Usage: steno folders [--org ID] [--json] [-q | --fields a,b]\n"
	"The folders steno has learned on this server (the API lists none: an order's answer\n"
	"gives its folder's id, a creation its path), per organization, with the config's\n"
	"folder.NAME that names one; ls --folder NAME uses them.\n";

/* The config's name of a folder (by id, or by path), or NULL. */
static const char *config_name(struct cli_ctx *c, const struct state_folder *f)
{
	const struct config_profile *p =
		c->acct.profile ? config_profile_find(&c->cfg, c->acct.profile) : NULL;
	for (size_t i = 0; p && i < p->n_folders; i++) {
		const struct config_folder *cf = &p->folders[i];
		const char *a = cf->path ? cf->path + (cf->path[0] == '/') : NULL;
		const char *b = f->path ? f->path + (f->path[0] == '/') : NULL;
		if ((cf->folder_id && f->folder_id && !strcmp(cf->folder_id, f->folder_id)) ||
		    (a && b && !strcmp(a, b)))
			return cf->name;
	}
	return NULL;
}

static void print_folders(struct cli_ctx *c, const char *org, bool json)
{
	static const char *const heads[] = {"ORG", "ID", "PATH", "NAME"};
	struct out_table t;
	out_table_init(&t, 4, heads);
	json_object *arr = json ? json_object_new_array() : NULL;
	const struct steno_state *st = &c->state;
	for (size_t i = 0; i < st->n_folders; i++) {
		const struct state_folder *f = &st->folders[i];
		if (strcmp(f->origin, st->origin ? st->origin : "") || (org && strcmp(f->org_id, org)))
			continue;
		const char *name = config_name(c, f);
		if (json) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "org", json_object_new_string(f->org_id));
			json_object_object_add(o, "id", f->folder_id ? json_object_new_string(f->folder_id)
								     : NULL);
			json_object_object_add(o, "path", f->path ? json_object_new_string(f->path) : NULL);
			json_object_object_add(o, "name", name ? json_object_new_string(name) : NULL);
			json_object_array_add(arr, o);
		} else {
			const char *cells[] = {f->org_id, f->folder_id, f->path, name};
			out_table_add(&t, cells);
		}
	}
	if (json)
		out_json(stdout, arr);
	else
		out_table_print(&t, stdout);
	json_object_put(arr);
	out_table_free(&t);
}

int cmd_folders(const struct cli_globals *g, int argc, char **argv)
{
	const char *org = NULL;
	bool json = false;
	int rc = cmd_parse_simple("folders", argc, argv, &org, &json, NULL, NULL, 0);
	if (rc != 0)
		return rc < 0 ? cmd_help(folders_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "folders");
	if (rc == 0)
		rc = cli_ctx_account(&c);
	const char *o = rc == 0 && (org || g->org) ? cli_org(&c, org) : NULL;
	if (rc == 0 && (org || g->org) && !o)
		rc = CLI_EXIT_USAGE;
	if (rc == 0) {
		cli_state(&c);
		print_folders(&c, o, json);
	}
	cli_ctx_close(&c);
	return rc;
}
