/* Room for tui/cli; replaced as the room fills. */
typedef int steno_cli_placeholder;
