# unit tests: ui
