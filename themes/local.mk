# Theme files, installed to $(pkgdatadir)/themes. themes/default.theme is also
# compiled into steno (tui/ui/local.mk).
themedir = $(pkgdatadir)/themes
dist_theme_DATA = \
	%reldir%/default.theme \
	%reldir%/light.theme \
	%reldir%/solarized-dark.theme \
	%reldir%/gruvbox.theme \
	%reldir%/high-contrast.theme \
	%reldir%/mono.theme
