# integration tests: sandbox
