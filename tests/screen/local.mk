# Screen tests: the real TUI on a fixed-size virtual terminal.
