# Theme files, installed to $(pkgdatadir)/themes.
themedir = $(pkgdatadir)/themes
dist_theme_DATA =
