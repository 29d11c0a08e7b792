# tui/api HTTP engine and endpoints (see local.mk).
