# Integration tests: real HTTP over loopback against steno-sandbox. One fragment per area.
include %reldir%/sandbox.mk
include %reldir%/asr.mk
include %reldir%/engine.mk
include %reldir%/cli.mk
include %reldir%/security.mk
include %reldir%/trust.mk
