# integration tests: cli
