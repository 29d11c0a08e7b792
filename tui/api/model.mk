# tui/api resource model (see local.mk).
