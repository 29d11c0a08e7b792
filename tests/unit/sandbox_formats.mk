# unit tests: sandbox_formats
