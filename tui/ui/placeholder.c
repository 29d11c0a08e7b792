/* Room for tui/ui; replaced as the room fills. */
typedef int steno_ui_placeholder;
