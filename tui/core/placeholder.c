/* Room for tui/core; replaced as the room fills. */
typedef int steno_core_placeholder;
