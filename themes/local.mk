# Theme files, installed to $(pkgdatadir)/themes, and all compiled into steno (default first:
# it is the built-in default; tui/ui/local.mk).
themedir = $(pkgdatadir)/themes
dist_theme_DATA = \
	%reldir%/default.theme \
	%reldir%/light.theme \
	%reldir%/solarized-dark.theme \
	%reldir%/gruvbox.theme \
	%reldir%/high-contrast.theme \
	%reldir%/mono.theme
