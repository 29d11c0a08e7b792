/* `steno help [CMD [SUB]]` and `steno completion bash|zsh|fish`, both from the command table
 * (cli.c): the commands, order's subcommands, and each one's options as its --help text
 * names them. A command added to the table is completed without more work. */
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
 * synopsis ("Usage:" and the lines of [...] after it) and from the option lines (those
 * that start with "-"), up to their description (two spaces): never from prose. */
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
		else if (*t != '[')
			synopsis = false;
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
	if (argc > 2 && !strcmp(c->name, "order")) {
		c = find_in(cli_order_cmds, cli_n_order_cmds, argv[2]);
		if (!c)
			return cli_usage("help", "no subcommand 'order %s'", argv[2]);
		prefix = "order ";
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

/* The words completed after `steno CMD [SUB]`: its options (and order's subcommands). */
static void words_of(const struct cli_cmd *c, const char *prefix, FILE *f, bool quote)
{
	struct opt_set s = {0};
	opts_of(&s, c, prefix);
	for (size_t i = 0; i < s.n; i++)
		fprintf(f, "%s%s", i ? " " : "", s.name[i]);
	opts_free(&s);
	if (!strcmp(c->name, "order") && !prefix[0])
		for (size_t i = 0; i < cli_n_order_cmds; i++)
			fprintf(f, " %s", cli_order_cmds[i].name);
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
	for (size_t i = 0; i < cli_n_order_cmds; i++) {
		fprintf(f, "\t\"order/%s\")\n\t\tlist=\"", cli_order_cmds[i].name);
		words_of(&cli_order_cmds[i], "order ", f, false);
		fputs("\"\n\t\t;;\n", f);
	}
	fputs("\t*) list=\"--help\" ;;\n\tesac\n", f);
}

/* The shell function's head, the same in bash and zsh: it walks the words before the
 * current one (`first`..`before`, each `word`) for the command and order's subcommand,
 * skipping a global option's value; then `list` gets the words to offer. */
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
	      "\t\t\telif [[ $cmd == order && -z $sub ]]; then sub=\"$w\"; fi ;;\n"
	      "\t\tesac\n"
	      "\tdone\n", f);
	cases(f);
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

static void gen_fish(FILE *f)
{
	fputs("# fish completion for steno (made by: steno completion fish)\n", f);
	struct opt_set g = {0};
	global_opts(&g);
	for (size_t i = 0; i < g.n; i++)
		fprintf(f, "complete -c steno -n '__fish_use_subcommand' %s %s%s\n",
			g.name[i][1] == '-' ? "-l" : "-s", g.name[i] + (g.name[i][1] == '-' ? 2 : 1),
			g.arg[i] ? " -r" : "");
	opts_free(&g);
	for (size_t i = 0; i < cli_n_cmds; i++)
		fprintf(f, "complete -c steno -n '__fish_use_subcommand' -f -a %s -d '%s'\n",
			cli_cmds[i].name, cli_cmds[i].summary);
	fputs("complete -c steno -n '__fish_use_subcommand' -f -a keys\n", f);
	char cond[300];
	for (size_t i = 0; i < cli_n_cmds; i++) {
		snprintf(cond, sizeof cond, "__fish_seen_subcommand_from %s", cli_cmds[i].name);
		fish_words(f, &cli_cmds[i], "", cond);
	}
	char subs[200] = "";
	for (size_t i = 0, o = 0; i < cli_n_order_cmds && o < sizeof subs; i++)
		o += (size_t)snprintf(subs + o, sizeof subs - o, " %s", cli_order_cmds[i].name);
	for (size_t i = 0; i < cli_n_order_cmds; i++) {
		fprintf(f, "complete -c steno -n '__fish_seen_subcommand_from order; and not "
			   "__fish_seen_subcommand_from%s' -f -a %s -d '%s'\n", subs,
			cli_order_cmds[i].name, cli_order_cmds[i].summary);
		snprintf(cond, sizeof cond, "__fish_seen_subcommand_from order; and "
			 "__fish_seen_subcommand_from %s", cli_order_cmds[i].name);
		fish_words(f, &cli_order_cmds[i], "order ", cond);
	}
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
