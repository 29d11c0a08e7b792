/* `steno help [CMD [SUB]]` and `steno completion bash|zsh|fish`, both from the command table
 * (cli.c): the commands, their subcommands (order's, cache's, config's), and each one's
 * options as its --help text names them. A command added to the table is completed without more work. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"

/* ---- options read from a --help text ---- */

struct opt_set {
	char *name[64];
	bool arg[64];
	size_t n;
};

static void opt_add(struct opt_set *s, const char *p, size_t len, bool arg)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->name[i]) == len && !strncmp(s->name[i], p, len)) {
			s->arg[i] = s->arg[i] || arg;
			return;
		}
	if (s->n < 64 && (s->name[s->n] = strndup(p, len)))
		s->arg[s->n++] = arg;
}

/* "--name N" (one space, then a metavariable) takes an argument; "--json   text",
 * "[--json]" and "--json |" do not. Short options "-o DIR", "-q" too. Read from the
 * synopsis ("Usage:" and the lines of [...] or "steno ..." after it) and from the option
 * lines (those that start with "-"), up to their description (two spaces): never from prose. */
static void opts_of_line(struct opt_set *s, const char *line, size_t n, bool option_line)
{
	const char *end = line + n;
	for (const char *p = line; p < end; p++) {
		bool start = p == line || p[-1] == ' ' || p[-1] == '[' || p[-1] == '|';
		if (!start || p[0] != '-')
			continue;
		if (option_line && p > line) {
			/* in an option line, after the first: only "-o, --output" and "a  |  --b" */
			const char *b = p - 1;
			while (b > line && *b == ' ')
				b--;
			if (*b != ',' && *b != '|')
				continue;
		}
		const char *q = p + 1 + (p + 1 < end && p[1] == '-');
		size_t len = 0;
		while (q + len < end && (isalnum((unsigned char)q[len]) || (len && q[len] == '-')))
			len++;
		if (!len || (p[1] != '-' && len != 1))
			continue;
		const char *after = q + len;
		bool arg = after + 1 < end && after[0] == ' ' &&
			   (isalnum((unsigned char)after[1]) || after[1] == '<');
		opt_add(s, p, (size_t)(q + len - p), arg);
		p = after - 1;
	}
}

static void opts_of_text(struct opt_set *s, const char *text)
{
	bool synopsis = false;
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		const char *t = line;
		while (t < line + n && *t == ' ')
			t++;
		if (!strncmp(t, "Usage:", 6))
			synopsis = true;
		else if (*t != '[' && strncmp(t, "steno ", 6))
			synopsis = false;   /* "[...]" lines and a second "steno SUB ..." continue it */
		if (synopsis || *t == '-')
			opts_of_line(s, t, n - (size_t)(t - line), !synopsis);
		line = nl ? nl + 1 : NULL;
	}
	opt_add(s, "--help", 6, false);
}

static void opts_free(struct opt_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	s->n = 0;
}

static void opts_of(struct opt_set *s, const struct cli_cmd *c, const char *prefix)
{
	char *text = cli_help_text(c, prefix);
	opts_of_text(s, text);
	free(text);
}

static void global_opts(struct opt_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	cli_print_usage(f);
	fclose(f);
	/* only the options part: the commands' summaries name other options */
	char *cmds = text ? strstr(text, "\nCommands") : NULL;
	if (cmds)
		*cmds = '\0';
	opts_of_text(s, text);
	free(text);
}

/* ---- help ---- */

static const char help_usage[] =
	"Usage: steno help [COMMAND [SUBCOMMAND]]\n"
	"Print steno's help, or a command's (as steno COMMAND --help).\n";

static const struct cli_cmd *find_in(const struct cli_cmd *t, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

int cmd_help_command(const struct cli_globals *g, int argc, char **argv)
{
	(void)g;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cmd_help(help_usage);
	if (argc < 2) {
		cli_print_usage(stdout);
		return CLI_EXIT_OK;
	}
	const struct cli_cmd *c = find_in(cli_cmds, cli_n_cmds, argv[1]);
	if (!c)
		return cli_usage("help", "no command '%s' (steno help lists them)", argv[1]);
	const char *prefix = "";
	char sub_prefix[64];
	if (argc > 2 && c->subs) {
		snprintf(sub_prefix, sizeof sub_prefix, "%s ", c->name);
		const struct cli_cmd *sub = find_in(c->subs, c->n_subs, argv[2]);
		if (!sub)
			return cli_usage("help", "no subcommand '%s %s'", c->name, argv[2]);
		c = sub;
		prefix = sub_prefix;
	}
	char *text = cli_help_text(c, prefix);
	if (!text)
		return CLI_EXIT_FAIL;
	fputs(text, stdout);
	free(text);
	return CLI_EXIT_OK;
}

/* ---- completion scripts ---- */

static const char completion_usage[] =
	"Usage: steno completion bash|zsh|fish\n"
	"Print the completion script of a shell, made from steno's command table. make install\n"
	"installs them; or: source <(steno completion bash).\n";

/* The words completed after `steno CMD [SUB]`: its options (and its subcommands). */
static void words_of(const struct cli_cmd *c, const char *prefix, FILE *f, bool quote)
{
	struct opt_set s = {0};
	opts_of(&s, c, prefix);
	for (size_t i = 0; i < s.n; i++)
		fprintf(f, "%s%s", i ? " " : "", s.name[i]);
	opts_free(&s);
	for (size_t i = 0; !prefix[0] && i < c->n_subs; i++)
		fprintf(f, " %s", c->subs[i].name);
	if (!strcmp(c->name, "help"))
		for (size_t i = 0; i < cli_n_cmds; i++)
			fprintf(f, " %s", cli_cmds[i].name);
	if (!strcmp(c->name, "completion"))
		fputs(" bash zsh fish", f);
	(void)quote;
}

static void top_words(FILE *f)
{
	struct opt_set s = {0};
	global_opts(&s);
	for (size_t i = 0; i < cli_n_cmds; i++)
		fprintf(f, "%s ", cli_cmds[i].name);
	fputs("keys", f);
	for (size_t i = 0; i < s.n; i++)
		fprintf(f, " %s", s.name[i]);
	opts_free(&s);
}

/* The global options that take an argument (their value is not the command). */
static void global_arg_opts(FILE *f, const char *sep)
{
	struct opt_set s = {0};
	global_opts(&s);
	bool first = true;
	for (size_t i = 0; i < s.n; i++)
		if (s.arg[i]) {
			fprintf(f, "%s%s", first ? "" : sep, s.name[i]);
			first = false;
		}
	opts_free(&s);
}

static void cases(FILE *f)
{
	fputs("\tcase \"$cmd/$sub\" in\n\t\"/\")\n\t\tlist=\"", f);
	top_words(f);
	fputs("\"\n\t\t;;\n", f);
	for (size_t i = 0; i < cli_n_cmds; i++) {
		fprintf(f, "\t\"%s/\")\n\t\tlist=\"", cli_cmds[i].name);
		words_of(&cli_cmds[i], "", f, false);
		fputs("\"\n\t\t;;\n", f);
	}
	for (size_t i = 0; i < cli_n_cmds; i++) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "%s ", cli_cmds[i].name);
		for (size_t j = 0; j < cli_cmds[i].n_subs; j++) {
			fprintf(f, "\t\"%s/%s\")\n\t\tlist=\"", cli_cmds[i].name,
				cli_cmds[i].subs[j].name);
			words_of(&cli_cmds[i].subs[j], prefix, f, false);
			fputs("\"\n\t\t;;\n", f);
		}
	}
	fputs("\t*) list=\"--help\" ;;\n\tesac\n", f);
}

static void theme_names(FILE *f)
{
	for (size_t i = 0; cli_theme_name && cli_theme_name(i); i++)
		fprintf(f, "%s%s", i ? " " : "", cli_theme_name(i));
}

/* The shell function's head, the same in bash and zsh: it walks the words before the
 * current one (`first`..`before`, each `word`) for the command and its subcommand,
 * skipping a global option's value; then `list` gets the words to offer: when the current
 * word is a global option's value, --theme's names, or nothing (the shell's files). */
static void gen_walk(FILE *f, const char *first, const char *before, const char *word)
{
	fprintf(f, "_steno() {\n"
		   "\tlocal cmd=\"\" sub=\"\" w list skip=\"\"\n"
		   "\tlocal i\n"
		   "\tfor ((i = %s; i < %s; i++)); do\n"
		   "\t\tw=\"%s\"\n"
		   "\t\tif [[ -n $skip ]]; then skip=\"\"; continue; fi\n"
		   "\t\tcase \"$w\" in\n\t\t", first, before, word);
	global_arg_opts(f, "|");
	fputs(")\n\t\t\t[[ -z $cmd ]] && skip=1 ;;\n"
	      "\t\t-*) ;;\n"
	      "\t\t*)\n"
	      "\t\t\tif [[ -z $cmd ]]; then cmd=\"$w\"\n"
	      "\t\t\telif [[ -z $sub ]]; then\n"
	      "\t\t\t\tcase \"$cmd\" in\n\t\t\t\t", f);
	bool any = false;
	for (size_t i = 0; i < cli_n_cmds; i++)
		if (cli_cmds[i].n_subs) {
			fprintf(f, "%s%s", any ? "|" : "", cli_cmds[i].name);
			any = true;
		}
	fputs(") sub=\"$w\" ;;\n\t\t\t\tesac\n\t\t\tfi ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tif [[ -n $skip ]]; then\n"
	      "\t\tcase \"$w\" in\n\t\t--theme) list=\"", f);
	theme_names(f);
	fputs("\" ;;\n\t\t*) list=\"\" ;;\n\t\tesac\n\telse\n", f);
	cases(f);
	fputs("\tfi\n", f);
}

static void gen_bash(FILE *f)
{
	fputs("# bash completion for steno (made by: steno completion bash)\n", f);
	gen_walk(f, "1", "COMP_CWORD", "${COMP_WORDS[i]}");
	fputs("\tCOMPREPLY=($(compgen -W \"$list\" -- \"${COMP_WORDS[COMP_CWORD]}\"))\n"
	      "}\n"
	      "complete -o default -F _steno steno\n", f);
}

static void gen_zsh(FILE *f)
{
	fputs("#compdef steno\n"
	      "# zsh completion for steno (made by: steno completion zsh)\n", f);
	gen_walk(f, "2", "CURRENT", "${words[i]}");
	fputs("\tcompadd -- ${=list}\n"
	      "\t[[ ${words[CURRENT]} == -* ]] || _files\n"
	      "}\n"
	      "_steno \"$@\"\n", f);
}

/* s inside fish's single quotes: a quote or a backslash escaped ("follow items' states"). */
static void fish_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static void fish_words(FILE *f, const struct cli_cmd *c, const char *prefix, const char *cond)
{
	struct opt_set s = {0};
	opts_of(&s, c, prefix);
	for (size_t i = 0; i < s.n; i++) {
		const char *o = s.name[i];
		fprintf(f, "complete -c steno -n '%s' %s %s%s\n", cond, o[1] == '-' ? "-l" : "-s",
			o + (o[1] == '-' ? 2 : 1), s.arg[i] ? " -r" : "");
	}
	opts_free(&s);
}

static void fish_subs(FILE *f, const struct cli_cmd *c)
{
	char subs[200] = "", cond[300], prefix[64];
	for (size_t i = 0, o = 0; i < c->n_subs && o < sizeof subs; i++)
		o += (size_t)snprintf(subs + o, sizeof subs - o, " %s", c->subs[i].name);
	snprintf(prefix, sizeof prefix, "%s ", c->name);
	for (size_t i = 0; i < c->n_subs; i++) {
		fprintf(f, "complete -c steno -n '__fish_seen_subcommand_from %s; and not "
			   "__fish_seen_subcommand_from%s' -f -a %s -d ", c->name, subs,
			c->subs[i].name);
		fish_quoted(f, c->subs[i].summary);
		fputc('\n', f);
		snprintf(cond, sizeof cond, "__fish_seen_subcommand_from %s; and "
			 "__fish_seen_subcommand_from %s", c->name, c->subs[i].name);
		fish_words(f, &c->subs[i], prefix, cond);
	}
}

static void gen_fish(FILE *f)
{
	fputs("# fish completion for steno (made by: steno completion fish)\n", f);
	struct opt_set g = {0};
	global_opts(&g);
	for (size_t i = 0; i < g.n; i++) {
		bool theme = !strcmp(g.name[i], "--theme");
		fprintf(f, "complete -c steno -n '__fish_use_subcommand' %s %s%s",
			g.name[i][1] == '-' ? "-l" : "-s", g.name[i] + (g.name[i][1] == '-' ? 2 : 1),
			theme ? " -x -a '" : g.arg[i] ? " -r" : "");
		if (theme) {
			theme_names(f);
			fputc('\'', f);
		}
		fputc('\n', f);
	}
	opts_free(&g);
	for (size_t i = 0; i < cli_n_cmds; i++) {
		fprintf(f, "complete -c steno -n '__fish_use_subcommand' -f -a %s -d ",
			cli_cmds[i].name);
		fish_quoted(f, cli_cmds[i].summary);
		fputc('\n', f);
	}
	fputs("complete -c steno -n '__fish_use_subcommand' -f -a keys\n", f);
	char cond[300];
	for (size_t i = 0; i < cli_n_cmds; i++) {
		snprintf(cond, sizeof cond, "__fish_seen_subcommand_from %s", cli_cmds[i].name);
		fish_words(f, &cli_cmds[i], "", cond);
	}
	for (size_t c = 0; c < cli_n_cmds; c++)
		fish_subs(f, &cli_cmds[c]);
	fputs("complete -c steno -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n",
	      f);
	fprintf(f, "complete -c steno -n '__fish_seen_subcommand_from help' -f -a '");
	for (size_t i = 0; i < cli_n_cmds; i++)
		fprintf(f, "%s%s", i ? " " : "", cli_cmds[i].name);
	fputs("'\n", f);
}

int cmd_completion(const struct cli_globals *g, int argc, char **argv)
{
	(void)g;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cmd_help(completion_usage);
	if (argc != 2)
		return cli_usage("completion", "name one shell: bash, zsh or fish");
	if (!strcmp(argv[1], "bash"))
		gen_bash(stdout);
	else if (!strcmp(argv[1], "zsh"))
		gen_zsh(stdout);
	else if (!strcmp(argv[1], "fish"))
		gen_fish(stdout);
	else
		return cli_usage("completion", "no completion for '%s' (bash, zsh or fish)", argv[1]);
	return CLI_EXIT_OK;
}
